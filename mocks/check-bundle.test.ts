import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bundleFixText } from './bundle-fix-text.ts'
import { recogniseBuild } from './bundle-targets.ts'
import { checkBundle, checkBundles, describeFindings, describeTargets } from './check-bundle.ts'
import { defaultApiKey } from './core/api-keys.ts'
import { failureLogPrefix } from './core/handle-request.ts'
import { writeTree } from './proof/file-tree.ts'

// Synthetic build trees shaped as Next, Vite and a plain folder leave them; the leaks are the mock's own
// markers (its handler chunk's log line, its default key, MSW's worker script).
const work = mkdtempSync(join(tmpdir(), 'animal-store-bundles-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const handlerChunk = `console.error("${failureLogPrefix} " + op)`
const keyChunk = `headers:{Authorization:"Bearer ${defaultApiKey}"}`

const tree = (name: string, files: Record<string, string>) => writeTree(join(work, name), files)

/** A `next build` output: client chunks, server code, the build cache, and `public/` beside `.next`. */
function nextApp(name: string, leaks: { worker?: boolean; chunk?: boolean; server?: boolean }): string {
  return tree(name, {
    'next.config.ts': 'export default {}',
    '.next/BUILD_ID': 'abc',
    '.next/static/chunks/main-1a2b.js': 'console.log("app")',
    '.next/static/chunks/app/page-3c4d.js': leaks.chunk ? handlerChunk : 'export default 1',
    '.next/server/app/page.js': leaks.server ? keyChunk : 'module.exports = {}',
    // The cache holds old compilations; it never ships, so its leaks are not the build's.
    '.next/cache/webpack/client-production/0.pack': `${handlerChunk} ${keyChunk}`,
    '.next/cache/swc/plugins/x.js': handlerChunk,
    'public/favicon.ico': 'icon',
    ...(leaks.worker ? { 'public/mockServiceWorker.js': '/* Mock Service Worker */' } : {}),
    'src/app/page.tsx': keyChunk, // sources are not the build
  })
}

describe('recogniseBuild', () => {
  it('takes a folder holding .next as a Next project: .next/static, .next/server and public/, skipping .next/cache', () => {
    const root = nextApp('next-shape', {})
    expect(recogniseBuild(root)).toEqual({
      given: root,
      root,
      framework: 'next',
      folders: [join(root, '.next/static'), join(root, '.next/server'), join(root, 'public')],
      skipped: [join(root, '.next/cache')],
    })
  })

  it('takes .next itself as the same Next build, public/ of its project included', () => {
    const root = nextApp('next-dot', {})
    const target = recogniseBuild(join(root, '.next'))
    expect(target.framework).toBe('next')
    expect(target.folders).toEqual([
      join(root, '.next/static'),
      join(root, '.next/server'),
      join(root, 'public'),
    ])
    expect(describeTargets([target])).toBe(
      `${join(root, '.next')}: a Next.js project; searched .next/static, .next/server, public (skipped .next/cache, which never ships)`,
    )
  })

  it("takes a Vite project's build.outDir when its config spells it out, else dist/", () => {
    const spelled = tree('vite-out', {
      'vite.config.ts': "export default defineConfig({ build: { outDir: './build/', target: 'es2022' } })",
      'build/index.html': '<!doctype html>',
    })
    expect(recogniseBuild(spelled)).toMatchObject({ framework: 'vite', folders: [join(spelled, 'build')] })
    const computed = tree('vite-computed', {
      'vite.config.mjs': 'export default { build: { outDir: process.env.OUT } }',
      'dist/index.html': '<!doctype html>',
    })
    expect(recogniseBuild(computed)).toMatchObject({ framework: 'vite', folders: [join(computed, 'dist')] })
    expect(recogniseBuild(join(computed, 'dist'))).toMatchObject({ framework: 'vite' })
  })

  it('takes any other folder as a plain one, searched as given', () => {
    const plain = tree('plain-shape', { 'index.html': '<!doctype html>' })
    expect(recogniseBuild(plain)).toMatchObject({ framework: 'plain', folders: [plain], skipped: [] })
  })

  it('refuses a missing folder and a Next or Vite project that was not built, saying what to run', () => {
    expect(() => recogniseBuild(join(work, 'nowhere'))).toThrow(/is not a folder/)
    expect(() => recogniseBuild(tree('next-unbuilt', { 'next.config.mjs': '' }))).toThrow(
      /run next build first/,
    )
    expect(() => recogniseBuild(tree('vite-unbuilt', { 'vite.config.ts': '' }))).toThrow(
      /run vite build first/,
    )
  })
})

describe('checkBundles', () => {
  it('names the worker Next serves from public/ and a leaking chunk once each, never the cache', () => {
    const root = nextApp('next-leaky', { worker: true, chunk: true, server: true })
    const { findings, targets } = checkBundles([root])
    expect(targets.map((target) => target.framework)).toEqual(['next'])
    expect(findings).toEqual([
      { file: '.next/server/app/page.js', reasons: [expect.stringContaining("the mock's default API key")] },
      {
        file: '.next/static/chunks/app/page-3c4d.js',
        reasons: [expect.stringContaining("the mock's request handlers")],
      },
      {
        file: 'public/mockServiceWorker.js',
        reasons: [expect.stringContaining("MSW's service worker script")],
      },
    ])
  })

  it('finds nothing in a clean Next build though its cache and sources hold the mock', () => {
    const root = nextApp('next-clean', {})
    const { findings, checked } = checkBundles([root])
    expect(findings).toEqual([])
    expect(checked).toBe(4) // two chunks, one server file, the favicon
  })

  it('names each file once when the folders overlap or reach it twice, and counts it once', () => {
    const root = tree('overlap', {
      'dist/index.html': '<!doctype html>',
      'dist/assets/mock-9f.js': handlerChunk,
    })
    symlinkSync(join(root, 'dist'), join(root, 'dist-link'))
    const dist = join(root, 'dist')
    const twice = checkBundles([dist, join(dist, 'assets'), `${dist}/./`, join(root, 'dist-link')])
    expect(twice.findings.map((finding) => finding.file)).toEqual([join(dist, 'assets/mock-9f.js')])
    expect(twice.checked).toBe(2)
    const next = nextApp('next-twice', { worker: true })
    const both = checkBundles([next, join(next, '.next'), join(next, 'public')])
    expect(both.findings.map((finding) => finding.file)).toEqual([join(next, 'public/mockServiceWorker.js')])
  })

  it('searches several projects of different frameworks in one run, naming files by the folder given', () => {
    const next = nextApp('many-next', { worker: true })
    const vite = tree('many-vite', { 'vite.config.ts': '', 'dist/assets/index-1.js': keyChunk })
    const plain = tree('many-plain', { 'site/index.html': '<!doctype html>' })
    const { findings, targets } = checkBundles([next, vite, plain])
    expect(targets.map((target) => target.framework)).toEqual(['next', 'vite', 'plain'])
    expect(findings.map((finding) => finding.file)).toEqual([
      join(next, 'public/mockServiceWorker.js'),
      join(vite, 'dist/assets/index-1.js'),
    ])
  })

  it('skips a .next/cache met inside a plain folder too', () => {
    const root = tree('plain-with-next', { 'app/.next/cache/0.pack': handlerChunk, 'app/index.html': '' })
    expect(checkBundles([root]).findings).toEqual([])
    expect(checkBundle(root).findings).toEqual([])
  })
})

describe('the fix text', () => {
  it('gives Next a guard that type-checks there (process.env.NODE_ENV, no import.meta.env) and says where the worker goes', () => {
    const text = bundleFixText('next')
    expect(text).toContain("if (process.env.NODE_ENV === 'development')")
    expect(text).toContain("await import('animal-store-contract-kit/mocks/browser')")
    expect(text).not.toContain('import.meta.env.')
    expect(text).toContain('mockServiceWorker.js out of public/')
    expect(text).toContain('withMockGuard')
  })

  it("gives Vite import.meta.env.DEV and its publicDir, and a plain folder neither framework's code", () => {
    expect(bundleFixText('vite')).toContain('import.meta.env.DEV')
    expect(bundleFixText('vite')).toContain('publicDir')
    const plain = bundleFixText('plain')
    expect(plain).not.toMatch(/import\.meta\.env|process\.env|publicDir|Next/)
    expect(plain).toContain('keep mockServiceWorker.js out of the folder you deploy')
  })

  it('is given once per framework found, after the files', () => {
    const text = describeFindings('a, b', [{ file: 'x.js', reasons: ['r'] }], ['next', 'next', 'vite'])
    expect(text.split('\n').slice(0, 2)).toEqual([
      'The build in a, b ships the Animal Store mock (1 file):',
      '  x.js: r',
    ])
    expect(text.match(/process\.env\.NODE_ENV === 'development'/g)).toHaveLength(1)
    expect(text.match(/import\.meta\.env\.DEV/g)).toHaveLength(1)
  })
})
