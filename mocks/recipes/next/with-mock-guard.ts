// The Vite plugin's equivalent for Next: a next.config wrapper that keeps the mock out of `next build`.
import { existsSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'

// Copy this file and mock-off.js beside your next.config.ts. It imports nothing from `next`: it is written
// against the documented shape of a Next config (`webpack(config, context)`, `turbopack.resolveAlias`),
// so it type-checks without Next installed.

/** The phase `next build` loads next.config in (`PHASE_PRODUCTION_BUILD` in `next/constants`). */
export const productionBuildPhase = 'phase-production-build'

/** The kit's modules that start a mock: a production build resolves them to an empty module. */
export const mockModules = [
  'animal-store-contract-kit/mocks',
  'animal-store-contract-kit/mocks/browser',
  'animal-store-contract-kit/mocks/node',
]

/** webpack's `resolve.alias`: an object, or the array form of `{ name, alias, onlyModule }`. */
type WebpackAlias = Record<string, unknown> | { name: string; alias: unknown; onlyModule?: boolean }[]

/** The parts of webpack's config this wrapper touches. */
export interface WebpackConfigShape {
  resolve?: { alias?: WebpackAlias; [key: string]: unknown }
  [key: string]: unknown
}

/** The parts of a Next config this wrapper reads and writes; everything else passes through untouched. */
export interface NextConfigShape {
  webpack?:
    | ((config: WebpackConfigShape, context: { dev: boolean; isServer: boolean }) => WebpackConfigShape)
    | null
  turbopack?: { resolveAlias?: Record<string, unknown>; [key: string]: unknown }
  [key: string]: unknown
}

/** A next.config's default export in its function form, which Next calls with the phase. */
export type NextConfigFunction = (
  phase: string,
  context: { defaultConfig: NextConfigShape },
) => NextConfigShape | Promise<NextConfigShape>

export interface MockGuardOptions {
  /** `false` builds with the mock on purpose (a staging build); default `true`. */
  enabled?: boolean
  /** The project's root, where public/ and the empty module are (default: the folder next build runs in). */
  projectDir?: string
  /** The module the mock's imports resolve to, from the project's root (default `mock-off.js`). */
  emptyModule?: string
  /** The module names left out (default `mockModules`). */
  modules?: readonly string[]
}

/**
 * Wraps a Next config so that `next build` leaves the mock out: it refuses to build while
 * `public/mockServiceWorker.js` is there (Next serves public/ as it is), and resolves the kit's mock modules
 * to an empty module under webpack and Turbopack. `next dev` and `next start` get the config unchanged.
 * Follow the build with `animal-store-mock check-bundle .`, which searches what the build wrote.
 * @example
 * // next.config.ts
 * import { withMockGuard } from './with-mock-guard'
 * export default withMockGuard({ reactStrictMode: true })
 */
export function withMockGuard(
  config: NextConfigShape | NextConfigFunction,
  options: MockGuardOptions = {},
): NextConfigFunction {
  return async (phase, context) => {
    const resolved = typeof config === 'function' ? await config(phase, context) : config
    if (phase !== productionBuildPhase || options.enabled === false) return resolved
    const projectDir = resolve(options.projectDir ?? process.cwd())
    const worker = join(projectDir, 'public', 'mockServiceWorker.js')
    if (existsSync(worker))
      throw new Error(
        'public/mockServiceWorker.js would ship: next build serves public/ as it is. Delete it before building ' +
          '(write it in a "predev" script, `animal-store-mock worker public`, and list it in .gitignore), or ' +
          'pass withMockGuard(config, { enabled: false }) for a build that carries the mock on purpose.',
      )
    const empty = resolve(projectDir, options.emptyModule ?? 'mock-off.js')
    if (!existsSync(empty))
      throw new Error(
        `${empty} is missing: withMockGuard resolves the mock's modules to it. Copy mock-off.js from the kit's ` +
          'mocks/recipes/next/ there, or pass { emptyModule } with its path.',
      )
    return guardedConfig(resolved, options.modules ?? mockModules, empty, projectDir)
  }
}

function guardedConfig(
  config: NextConfigShape,
  modules: readonly string[],
  empty: string,
  projectDir: string,
): NextConfigShape {
  // Turbopack reads a path from the project's root; webpack takes it absolute.
  const fromRoot = `./${relative(projectDir, empty).split(sep).join('/')}`
  const userWebpack = config.webpack
  return {
    ...config,
    webpack(webpackConfig, context) {
      const built = userWebpack ? userWebpack(webpackConfig, context) : webpackConfig
      const alias = built.resolve?.alias
      built.resolve = {
        ...built.resolve,
        alias: Array.isArray(alias)
          ? [...alias, ...modules.map((name) => ({ name, alias: empty, onlyModule: true }))]
          : // `$` makes webpack match the name exactly, not every path under it.
            { ...alias, ...Object.fromEntries(modules.map((name) => [`${name}$`, empty])) },
      }
      return built
    },
    turbopack: {
      ...config.turbopack,
      resolveAlias: {
        ...config.turbopack?.resolveAlias,
        ...Object.fromEntries(modules.map((name) => [name, fromRoot])),
      },
    },
  }
}
