// `npm run generate`: rewrites the types, document module and compiled validators made from the YAML.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { contractPath, contractSha256 } from '../contract/contract-path.ts'
import { validatorsModule } from '../contract/validators-module.ts'
import { defineCommand, helpText, parseCommand } from './cli/command-options.ts'
import { text } from './cli/option-kinds.ts'
import { readContractDocument } from './read-document.ts'
import { runCommand } from './run-command.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const contractDir = join(root, 'contract')

const command = defineCommand({
  name: 'npm run generate',
  usage: ['npm run generate [-- --out-dir DIR]'],
  summary: `Regenerates the three files made from contract/openapi.yaml, after you edit it:
  contract/types.gen.ts       TypeScript types (openapi-typescript)
  contract/openapi.gen.ts     the document as a module, which every runtime loads (formatted by Biome)
  contract/validators.gen.ts  its Ajv validators, compiled ahead of time (Ajv standalone code)
A file whose content would not change is left untouched, so running it on an unchanged YAML changes
nothing. npm test fails while any of them is stale.`,
  options: {
    'out-dir': {
      kind: text('DIR', 'a folder'),
      help: 'write the three files into DIR instead of contract/ (to compare, say)',
    },
  },
})
const help = helpText(command)

await runCommand(help, async (argv) => {
  const { values } = parseCommand(command, argv)
  if (values.help) return 'help'
  const outDir = resolve(values['out-dir'] ?? contractDir)
  mkdirSync(outDir, { recursive: true })
  for (const [name, content] of [
    ['types.gen.ts', generateTypes()],
    ['openapi.gen.ts', generateDocumentModule()],
    ['validators.gen.ts', validatorsModule(readContractDocument(), contractSha256())],
  ] as const) {
    const target = join(outDir, name)
    const shown = relative(process.cwd(), target) || target
    if (readOrUndefined(target) === content) console.log(`${shown} is up to date.`)
    else {
      writeFileSync(target, content)
      console.log(`Wrote ${shown}`)
    }
  }
  return undefined
})

/** The types exactly as `openapi-typescript --check` (run by npm test) expects them. */
function generateTypes(): string {
  const cli = join(packageDir('openapi-typescript'), 'bin/cli.js')
  const scratch = mkdtempSync(join(tmpdir(), 'animal-store-generate-'))
  try {
    const out = join(scratch, 'types.gen.ts')
    execFileSync(process.execPath, [cli, contractPath, '-o', out, '--silent'], {
      stdio: 'pipe',
      timeout: 60_000,
    })
    return readFileSync(out, 'utf8')
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The parsed YAML as a module, plus its hash so `npm start` can tell when the YAML changed since. */
function generateDocumentModule(): string {
  const source = `// Generated from the OpenAPI YAML beside this file by \`npm run generate\`: do not edit.
import type { OpenApiDocument } from './openapi-document.ts'

/** SHA-256 of the YAML this was generated from. */
export const sourceSha256 = '${contractSha256()}'

export const openapiDocument: OpenApiDocument = ${JSON.stringify(readContractDocument(), null, 2)}
`
  // Formatted with the repository's own Biome settings, so `npm run lint` accepts what this writes.
  const biome = join(packageDir('@biomejs/biome'), 'bin/biome')
  return execFileSync(biome, ['format', `--stdin-file-path=${join(contractDir, 'openapi.gen.ts')}`], {
    cwd: root,
    input: source,
    encoding: 'utf8',
    timeout: 60_000,
  })
}

/** A devDependency's folder (the generator runs in this repository only, after npm ci). */
function packageDir(name: string): string {
  return join(root, 'node_modules', name)
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}
