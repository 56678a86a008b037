import { execFile } from 'node:child_process'
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { bundlePath } from '../suites/run/bundle-cache.mjs'

// scripts/launch.mjs (what npm start runs) must never serve stale code: it rebuilds its cached bundle
// exactly when a bundled source changed, and otherwise reuses it.
const root = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)

it('reuses its bundle while the sources are unchanged and rebuilds when one changes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'launch-'))
  const name = `entry-${Date.now()}`
  writeFileSync(join(dir, 'greeting.ts'), "export const greeting: string = 'first'\n")
  writeFileSync(
    join(dir, `${name}.ts`),
    "import { greeting } from './greeting.ts'\nconsole.log(greeting, new URL(import.meta.url).pathname, process.argv.slice(2).join(' '))\n",
  )
  const launch = () =>
    run(process.execPath, ['scripts/launch.mjs', join(dir, `${name}.ts`), '--flag', 'value'], { cwd: root })
  const bundle = bundlePath(join(dir, `${name}.ts`), root, { bundlePackages: true })

  expect((await launch()).stdout.trim()).toBe(`first ${join(dir, `${name}.ts`)} --flag value`)
  const built = statSync(bundle).mtimeMs
  expect((await launch()).stdout.trim()).toMatch(/^first /)
  expect(statSync(bundle).mtimeMs).toBe(built)

  writeFileSync(join(dir, 'greeting.ts'), "export const greeting: string = 'second, and longer'\n")
  expect((await launch()).stdout.trim()).toMatch(/^second, and longer /)
})
