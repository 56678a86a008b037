import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { writeServiceWorker } from '../service-worker-file.ts'
import { buildExample } from './build-example.ts'

// The example app built as a team deploys it (`vite build`, its own process), then judged by the real
// `animal-store-mock check-bundle` command and by the mockGuard plugin in its vite.config.ts.
const startMock = fileURLToPath(new URL('../../scripts/start-mock.ts', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'animal-store-build-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function checkBundle(...dirs: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', startMock, 'check-bundle', ...dirs],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    )
  })
}

describe("the example app's production build", () => {
  it('builds clean in production mode: no worker script, no mock chunk, no mock key; check-bundle exits 0', async () => {
    const out = join(work, 'production')
    const built = await buildExample(out, 'production')
    expect(built.code, built.output).toBe(0)
    const checked = await checkBundle(out)
    expect(checked.code, checked.output).toBe(0)
    expect(checked.output).toMatch(/no part of the Animal Store mock in \d+ files/)
  })

  it('is named file by file by check-bundle when built in development mode (worker, handlers, key): exit 1', async () => {
    writeServiceWorker(fileURLToPath(new URL('public', import.meta.url)))
    const out = join(work, 'development')
    // NODE_ENV too: Vite reads it, not the mode, to decide import.meta.env.DEV.
    const built = await buildExample(out, 'development', { NODE_ENV: 'development' })
    expect(built.code, built.output).toBe(0)
    const checked = await checkBundle(out)
    expect(checked.code, checked.output).toBe(1)
    expect(checked.output).toContain("mockServiceWorker.js: MSW's service worker script")
    expect(checked.output).toMatch(
      /assets\/[\w.-]+\.js: the mock's request handlers .*; the mock's default API key/,
    )
  })

  it('fails vite build in production mode through mockGuard when the mock gets in (NODE_ENV=development)', async () => {
    const out = join(work, 'leaky')
    const built = await buildExample(out, 'production', { NODE_ENV: 'development' })
    expect(built.code).not.toBe(0)
    expect(built.output).toContain('ships the Animal Store mock')
    expect(built.output).toMatch(/assets\/[\w.-]+\.js: the mock's request handlers/)
    expect(built.output).not.toContain('mockServiceWorker.js:')
  })
})

describe('check-bundle', () => {
  it('exits 2 with a usage error when the folder does not exist', async () => {
    const checked = await checkBundle(join(work, 'no-such-folder'))
    expect(checked.code).toBe(2)
    expect(checked.output).toContain('is not a folder')
  })

  it('names the worker a Next app serves from public/ once, passing over .next/cache: exit 1, with the Next fix', async () => {
    const app = join(work, 'next-app')
    const files: Record<string, string> = {
      '.next/static/chunks/main.js': 'app',
      '.next/server/app/page.js': 'page',
      '.next/cache/webpack/0.pack': 'mockServiceWorker.js',
    }
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(app, path)), { recursive: true })
      writeFileSync(join(app, path), text)
    }
    writeServiceWorker(join(app, 'public'))
    writeServiceWorker(join(app, '.next/cache/images'))
    const checked = await checkBundle(app, join(app, 'public'))
    expect(checked.code, checked.output).toBe(1)
    expect(checked.output).toContain('a Next.js project; searched .next/static, .next/server, public')
    expect(checked.output.match(/mockServiceWorker\.js: MSW's service worker script/g)).toHaveLength(1)
    expect(checked.output).toContain("if (process.env.NODE_ENV === 'development')")
  })
})
