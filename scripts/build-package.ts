import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Builds the installable package into dist/: JavaScript and declarations from the TypeScript sources
// (import extensions rewritten to .js), plus the YAML Prism reads. Run by `npm pack` (prepack).
const root = fileURLToPath(new URL('..', import.meta.url))
// TypeScript 7, the native compiler (about 1 s here against 6.5 s for 5.9, which openapi-typescript's peer
// range keeps as \`typescript\`): the package test packs the tarball before anything else can start.
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')), 'bin/tsc')

rmSync(`${root}dist`, { recursive: true, force: true })
console.log('Compiling TypeScript into dist/ ...')
const compiled = spawnSync(process.execPath, [tsc, '-p', `${root}scripts/tsconfig.build.json`], {
  stdio: 'inherit',
})
if (compiled.status !== 0) {
  console.error(
    'Error: the TypeScript build failed (see above). Fix the type errors, then run `npm run build` again.',
  )
  process.exit(1)
}
copyFileSync(`${root}contract/openapi.yaml`, `${root}dist/contract/openapi.yaml`)
for (const bin of ['start-mock', 'conformance', 'contract']) chmodSync(`${root}dist/scripts/${bin}.js`, 0o755)
console.log('Built dist/.')
