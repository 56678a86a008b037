// vitest, the suite's bundle and the thread it runs in, loaded while the pre-flight waits for the server.
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ConformanceTarget } from '../engine/index.ts'
import { type PrestartedWorker, prestartVitestWorker } from './prestarted-worker.ts'

/** Where vitest finds the suite file, and the module of everything it runs (suite-engine.ts). */
interface SuiteLocation {
  root: string
  file: string
  engine: string
}

export interface LoadingSuite {
  loading: Promise<[typeof import('vitest/node'), SuiteLocation]>
  /** The thread vitest will run the suite in, started ahead (none where it cannot be). */
  prestarted: PrestartedWorker | undefined
  /**
   * Begins the run's checks in that thread, right after the suite's module it loads ahead (`begin`): called
   * once the target is final, the server's pre-flight passed and Prism, if any, is up.
   */
  begin(target: ConformanceTarget): void
}

// The suite file sits one folder up: .ts in the repository, .js in the built package.
const suitesDir = fileURLToPath(new URL('..', import.meta.url))

/**
 * Starts loading what the run needs: loading is CPU, the pre-flight a round trip. Called after the options
 * are checked, so `--help` and a wrong argument do not pay for vitest; a run the pre-flight stops exits
 * without waiting for it. The suite's thread starts now too, on the core loading vitest leaves idle.
 */
export function startLoadingSuite(): LoadingSuite {
  const prestarted = prestartVitestWorker()
  const located = suiteLocation().then((suite) => {
    prestarted?.preload(suite.engine)
    return suite
  })
  const loading = Promise.all([import('vitest/node'), located])
  loading.catch(() => {})
  return {
    loading,
    prestarted,
    begin: (target) =>
      void located.then(
        () => prestarted?.begin(target),
        () => {},
      ),
  }
}

/**
 * In the built package, the .js files beside the suites folder. From the repository's TypeScript, cached
 * bundles of them: vitest would otherwise transform and load some thirty source files one by one, ~0.8 s
 * of every run's start.
 */
async function suiteLocation(): Promise<SuiteLocation> {
  if (!import.meta.url.endsWith('.ts'))
    return {
      root: suitesDir,
      file: 'animal-store.conformance.js',
      engine: pathToFileURL(join(suitesDir, 'suite-engine.js')).href,
    }
  const { bundlePath, cachedBundle } = await import('./bundle-cache.mjs')
  const root = resolve(suitesDir, '..')
  const engine = join(suitesDir, 'suite-engine.ts')
  const bundle = await cachedBundle(join(suitesDir, 'animal-store.conformance.ts'), root, {
    bundlePackages: true,
    apart: [engine],
  })
  return {
    root: dirname(bundle),
    file: basename(bundle),
    engine: pathToFileURL(bundlePath(engine, root, { bundlePackages: true })).href,
  }
}
