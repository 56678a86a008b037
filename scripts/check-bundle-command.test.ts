import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { writeTree } from '../mocks/proof/file-tree.ts'
import { checkBundleCommand } from './check-bundle-command.ts'
import { UsageError } from './cli/usage-error.ts'

// The command in-process over synthetic builds; mocks/example/production-build.process.test.ts runs it
// as a process.
const work = mkdtempSync(join(tmpdir(), 'animal-store-check-bundle-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
afterEach(() => vi.restoreAllMocks())

const tree = (name: string, files: Record<string, string>) => writeTree(join(work, name), files)

function run(dirs: string[]): { code: number; out: string; err: string } {
  const out: string[] = []
  const err: string[] = []
  vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line))
  vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line))
  const code = checkBundleCommand(dirs)
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('check-bundle', () => {
  it('exits 0 on a clean Next build, saying it recognised Next and which folders it searched', () => {
    const root = tree('next-clean', {
      '.next/static/chunks/main.js': 'app',
      '.next/server/app/page.js': 'page',
      '.next/cache/fetch-cache/x': 'animal-store-mock-key',
      'public/logo.svg': '<svg/>',
    })
    const { code, out, err } = run([root])
    expect(code).toBe(0)
    expect(err).toBe('')
    expect(out).toContain(
      `${root}: a Next.js project; searched .next/static, .next/server, public (skipped .next/cache, which never ships)`,
    )
    expect(out).toContain(`${root}: no part of the Animal Store mock in 3 files.`)
  })

  it("exits 1 on a Vite build, naming the leak with Vite's fix and not Next's", () => {
    const root = tree('vite-leaky', { 'vite.config.ts': '', 'dist/mockServiceWorker.js': '/* msw */' })
    const { code, out, err } = run([root])
    expect(code).toBe(1)
    expect(out).toContain(`${root}: a Vite project; searched dist`)
    expect(err).toContain("  dist/mockServiceWorker.js: MSW's service worker script")
    expect(err).toContain('import.meta.env.DEV')
    expect(err).not.toContain('process.env.NODE_ENV')
  })

  it('takes several folders, each fix once, and keeps a plain folder plain', () => {
    const a = tree('plain-a', { 'mockServiceWorker.js': '/* msw */' })
    const b = tree('plain-b', { 'index.html': '' })
    const { code, out, err } = run([a, b, a])
    expect(code).toBe(1)
    expect(out.split('\n')).toEqual([
      `${a}: a plain folder; searched .`,
      `${b}: a plain folder; searched .`,
      `${a}: a plain folder; searched .`,
    ])
    expect(err.match(/mockServiceWorker\.js: /g)).toHaveLength(1)
    expect(err.match(/Load the mock only in development builds/g)).toHaveLength(1)
  })

  it('is a usage error (exit 2) without a folder, or with one that was never built', () => {
    expect(() => run([])).toThrow(UsageError)
    expect(() => run([tree('next-unbuilt', { 'next.config.ts': '' })])).toThrow(/run next build first/)
  })
})
