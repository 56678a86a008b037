import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import {
  mockModules,
  type NextConfigShape,
  productionBuildPhase,
  type WebpackConfigShape,
  withMockGuard,
} from './with-mock-guard.ts'

// The wrapper's transformation of a Next config, as Next would call it: with the phase, then webpack's
// hook for each compiler. Next's own build of a config wrapped this way is next-recipe.browser.test.ts.
const work = mkdtempSync(join(tmpdir(), 'animal-store-next-guard-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const mockOff = fileURLToPath(new URL('mock-off.js', import.meta.url))
const context = { defaultConfig: {} }

/** A Next project with the recipe's empty module copied in, as its README says. */
function project(name: string, files: Record<string, string> = {}): string {
  const dir = join(work, name)
  mkdirSync(join(dir, 'public'), { recursive: true })
  copyFileSync(mockOff, join(dir, 'mock-off.js'))
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text)
  return dir
}

function runWebpack(config: NextConfigShape, isServer: boolean): WebpackConfigShape {
  const webpackConfig: WebpackConfigShape = {
    resolve: { alias: { 'next/dist/x': '/next/x' } },
    mode: 'production',
  }
  return config.webpack?.(webpackConfig, { dev: false, isServer }) ?? webpackConfig
}

describe('withMockGuard', () => {
  it('gives next dev and next start the config unchanged, worker or not', async () => {
    const dir = project('dev', { 'public/mockServiceWorker.js': '/* msw */' })
    const config = { reactStrictMode: true }
    const guarded = withMockGuard(config, { projectDir: dir })
    expect(await guarded('phase-development-server', context)).toBe(config)
    expect(await guarded('phase-production-server', context)).toBe(config)
  })

  it("resolves the kit's mock modules to the empty module in next build, for the client and the server", async () => {
    const dir = project('aliases')
    const built = await withMockGuard({ reactStrictMode: true }, { projectDir: dir })(
      productionBuildPhase,
      context,
    )
    expect(built.reactStrictMode).toBe(true)
    for (const isServer of [false, true])
      expect(runWebpack(built, isServer).resolve?.alias).toEqual({
        'next/dist/x': '/next/x',
        'animal-store-contract-kit/mocks$': join(dir, 'mock-off.js'),
        'animal-store-contract-kit/mocks/browser$': join(dir, 'mock-off.js'),
        'animal-store-contract-kit/mocks/node$': join(dir, 'mock-off.js'),
      })
    expect(built.turbopack).toEqual({
      resolveAlias: Object.fromEntries(mockModules.map((name) => [name, './mock-off.js'])),
    })
  })

  it("keeps the app's own webpack hook and Turbopack settings, running its hook first", async () => {
    const dir = project('chained')
    const seen: boolean[] = []
    const config: NextConfigShape = {
      webpack(webpackConfig, { isServer }) {
        seen.push(isServer)
        return { ...webpackConfig, resolve: { ...webpackConfig.resolve, alias: { app: '/app.js' } } }
      },
      turbopack: { rules: { '*.svg': ['@svgr/webpack'] }, resolveAlias: { app: './app.js' } },
    }
    const built = await withMockGuard(config, { projectDir: dir, modules: ['msw/browser'] })(
      productionBuildPhase,
      context,
    )
    expect(runWebpack(built, true).resolve?.alias).toEqual({
      app: '/app.js',
      'msw/browser$': join(dir, 'mock-off.js'),
    })
    expect(seen).toEqual([true])
    expect(built.turbopack).toEqual({
      rules: { '*.svg': ['@svgr/webpack'] },
      resolveAlias: { app: './app.js', 'msw/browser': './mock-off.js' },
    })
  })

  it("adds to webpack's array form of resolve.alias, matching the module name only", async () => {
    const dir = project('array')
    const built = await withMockGuard(
      { webpack: (config) => ({ ...config, resolve: { alias: [{ name: 'a', alias: '/a.js' }] } }) },
      { projectDir: dir, modules: ['animal-store-contract-kit/mocks/browser'] },
    )(productionBuildPhase, context)
    expect(runWebpack(built, false).resolve?.alias).toEqual([
      { name: 'a', alias: '/a.js' },
      { name: 'animal-store-contract-kit/mocks/browser', alias: join(dir, 'mock-off.js'), onlyModule: true },
    ])
  })

  it('calls a config function with the phase and its context, and guards what it returns', async () => {
    const dir = project('function')
    const calls: string[] = []
    const built = await withMockGuard(
      async (phase) => {
        calls.push(phase)
        return { output: 'standalone' }
      },
      { projectDir: dir, emptyModule: 'mock-off.js' },
    )(productionBuildPhase, context)
    expect(calls).toEqual([productionBuildPhase])
    expect(built.output).toBe('standalone')
    expect(Object.keys(built.turbopack?.resolveAlias ?? {})).toEqual(mockModules)
  })

  it('refuses next build while public/mockServiceWorker.js is there, unless turned off for a build with the mock', async () => {
    const dir = project('worker', { 'public/mockServiceWorker.js': '/* msw */' })
    await expect(withMockGuard({}, { projectDir: dir })(productionBuildPhase, context)).rejects.toThrow(
      /public\/mockServiceWorker\.js would ship: next build serves public\/ as it is/,
    )
    const config = {}
    expect(
      await withMockGuard(config, { projectDir: dir, enabled: false })(productionBuildPhase, context),
    ).toBe(config)
  })

  it('says where to get the empty module when it is missing', async () => {
    const dir = join(work, 'no-stub')
    mkdirSync(dir)
    await expect(withMockGuard({}, { projectDir: dir })(productionBuildPhase, context)).rejects.toThrow(
      /mock-off\.js is missing: .*Copy mock-off\.js from the kit's mocks\/recipes\/next\//,
    )
  })

  it('resolves to a module that exports nothing of the mock', async () => {
    expect(Object.keys(await import(pathToFileURL(mockOff).href))).toEqual([])
  })
})
