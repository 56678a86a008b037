import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

// `npm run generate` as a person runs it after editing the YAML, on the unchanged YAML here.
const root = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)
const generate = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/generate-contract.ts', ...args], {
    cwd: root,
    timeout: 60_000,
  })
const generated = ['types.gen.ts', 'openapi.gen.ts', 'validators.gen.ts']

describe('npm run generate', () => {
  it('writes exactly the committed, Biome-formatted files from the unchanged YAML', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'animal-store-generate-'))
    await generate('--out-dir', outDir)
    expect(readdirSync(outDir).sort()).toEqual([...generated].sort())
    for (const name of generated)
      expect(readFileSync(join(outDir, name), 'utf8'), name).toBe(
        readFileSync(join(root, 'contract', name), 'utf8'),
      )
    // `npm run lint` checks the committed files, so output identical to them passes it too.
  })

  it('leaves contract/ untouched when the YAML has not changed', async () => {
    const before = generated.map((name) => statSync(join(root, 'contract', name)).mtimeMs)
    const { stdout } = await generate()
    expect(stdout).toContain('contract/types.gen.ts is up to date.')
    expect(stdout).toContain('contract/openapi.gen.ts is up to date.')
    expect(stdout).toContain('contract/validators.gen.ts is up to date.')
    expect(generated.map((name) => statSync(join(root, 'contract', name)).mtimeMs)).toEqual(before)
  })

  it('prints its usage for --help and generates nothing', async () => {
    const { stdout } = await generate('--help')
    expect(stdout).toMatch(/^Usage: npm run generate/)
    expect(stdout).not.toContain('Wrote')
  })
})
