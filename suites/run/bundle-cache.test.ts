import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { bundlePath, cachedBundle } from './bundle-cache.mjs'

const scratch: string[] = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

// The suite file's bundle imports the bundle of everything it runs (suite-engine.ts), which vitest's thread
// loads ahead: the two must share one instance of it, and neither may go stale.
it('bundles a module apart, imported by the bundle that uses it, and rebuilds it when its source changes', async () => {
  const root = mkdtempSync(join(tmpdir(), 'bundle-apart-'))
  scratch.push(root)
  const engine = join(root, 'engine.ts')
  writeFileSync(engine, "export const engine = { version: 'first', loaded: Math.random() }\n")
  writeFileSync(
    join(root, 'suite.ts'),
    "import { engine } from './engine.ts'\nexport const seen = engine\nexport const own = 'suite code'\n",
  )
  const build = () => cachedBundle(join(root, 'suite.ts'), root, { bundlePackages: false, apart: [engine] })

  const suite = await build()
  const enginePath = bundlePath(engine, root)
  expect(enginePath.startsWith(join(root, 'node_modules/.cache/animal-store-launch/'))).toBe(true)
  expect(dirname(enginePath)).toBe(dirname(suite))
  expect(readFileSync(suite, 'utf8')).toContain('./engine.external.mjs')
  expect(readFileSync(suite, 'utf8')).not.toContain('Math.random')
  // Loaded ahead, the engine is the very instance the suite's bundle then finds.
  const ahead = await import(pathToFileURL(enginePath).href)
  const { seen } = await import(pathToFileURL(suite).href)
  expect(seen).toBe(ahead.engine)

  const built = statSync(suite).mtimeMs
  writeFileSync(engine, "export const engine = { version: 'second, and longer', loaded: Math.random() }\n")
  expect(await build()).toBe(suite)
  expect(statSync(suite).mtimeMs).toBe(built)
  expect(readFileSync(enginePath, 'utf8')).toContain('second, and longer')
})

// Two checkouts can share one node_modules through a link (worktrees do): an entry of the same name in the
// other must never be served this one's bundle.
it('keeps a bundle per checkout, never serving one the other built for its entry of the same name', async () => {
  const shared = mkdtempSync(join(tmpdir(), 'bundle-shared-'))
  scratch.push(shared)
  const checkouts = ['one', 'two'].map((name) => {
    const root = join(shared, name)
    mkdirSync(root)
    symlinkSync(join(shared, 'node_modules'), join(root, 'node_modules'))
    writeFileSync(join(root, 'entry.ts'), `export const checkout = '${name}'\n`)
    return root
  })
  mkdirSync(join(shared, 'node_modules'))
  const built = new Map<string, number>()
  for (const root of [...checkouts, ...checkouts]) {
    const bundle = await cachedBundle(join(root, 'entry.ts'), root)
    expect(readFileSync(bundle, 'utf8')).toContain(`checkout = "${root.endsWith('one') ? 'one' : 'two'}"`)
    // The second round finds each checkout's own bundle current: neither rebuilt over the other's.
    const mtime = statSync(bundle).mtimeMs
    expect(built.get(bundle) ?? mtime).toBe(mtime)
    built.set(bundle, mtime)
  }
  expect(built.size).toBe(2)
})
