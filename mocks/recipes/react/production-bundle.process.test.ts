import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

// The React recipe built as a team builds it, `vite build` in its own process, and its output read back:
// what the production bundle holds is what users download.
const root = fileURLToPath(new URL('../../..', import.meta.url))
const run = promisify(execFile)
const scratch = mkdtempSync(join(tmpdir(), 'animal-store-react-build-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Strings only the mock's code carries: msw's log prefix, the worker script's name, faker's pet names. */
const mockMarkers = ['[MSW]', 'mockServiceWorker.js', 'petName']

async function build(name: string, env: Record<string, string>): Promise<string> {
  const outDir = join(scratch, name)
  const config = join(root, 'mocks/recipes/react/vite.config.ts')
  const { NODE_ENV: _vitestSetsTest, ...inherited } = process.env
  await run(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', config, '--outDir', outDir],
    { cwd: root, timeout: 120_000, env: { ...inherited, ...env } },
  )
  return readdirSync(join(outDir, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(outDir, 'assets', file), 'utf8'))
    .join('\n')
}

describe('the React recipe built with vite', () => {
  it('ships none of the mock in the production bundle, even with the flag on', async () => {
    const bundle = await build('production', { VITE_MOCK_API: 'true' })
    expect(bundle).toContain('Loading pets') // the app itself is there
    for (const marker of mockMarkers) expect(bundle).not.toContain(marker)
  })

  it('does carry the mock when built for development with the flag on (so the check above can fail)', async () => {
    const bundle = await build('development', { VITE_MOCK_API: 'true', NODE_ENV: 'development' })
    for (const marker of mockMarkers) expect(bundle).toContain(marker)
  })
})
