import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { isatty } from 'node:tty'
import { pathToFileURL } from 'node:url'
import { MessageChannel, Worker } from 'node:worker_threads'
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node'

// The thread vitest runs the suite in, started while vitest itself loads, and taken by vitest only when it
// was started exactly as vitest would start it: docs/decisions/prestarted-vitest-thread.md.

/** A thread of vitest's `threads` pool, started ahead; vitest takes it over through `prestartedPool`. */
export interface PrestartedWorker {
  /** The thread, if it was started with exactly these and is still alive; it is then the caller's. */
  take(entrypoint: string, env: Partial<NodeJS.ProcessEnv>, execArgv: string[]): Worker | undefined
  /**
   * Has the thread import this module (a file: URL) once vitest's entry has loaded. A module that fails to
   * load is left for the test file's own import to report.
   */
  preload(url: string): void
  /**
   * Has the thread call the preloaded module's `beginChecks` with the run's target, once it has loaded: the
   * checks begin while vitest still loads (early-checks.ts). Only where the thread was started for the
   * vitest this was proven on (`beginsEarly`); elsewhere the checks wait for vitest, as without it. From
   * then on the thread is the run's: `take` hands it over or fails, it never lets vitest start another,
   * which would send the checks again.
   */
  begin(target: unknown): void
  /** Whether `begin` does anything here: under `provenVitest` and `provenVite`, with Node's own resolution. */
  readonly beginsEarly: boolean
  /** Stops the thread unless it was taken (a run that ends before vitest starts). */
  dispose(): void
}

/**
 * The vitest minor and the Vite majors under which `expectedStart` was proven to match how vitest starts
 * its thread: Vite 7, the repository's own (prestarted-worker.test.ts), and 8, what a fresh install of
 * vitest 4.1 brings (package.process.test.ts). The checks begin ahead only under these, with Node's own
 * module resolution (vitest passes other arguments under Yarn's Plug'n'Play or Deno). Elsewhere a guess
 * gone wrong costs the head start, not the run.
 */
export const provenVitest = '4.1'
export const provenVite = ['7', '8']

/**
 * The suite's thread gets a young generation of 8 MB (semi-spaces of 2.5 MB), where V8's default lets its
 * semi-spaces grow to 16 MB each: the checks make short-lived garbage fast, and V8 grew the young
 * generation to hold more of it between scavenges, some 10 MB more of a plain run's memory. Smaller is
 * worse: at 6 MB, the 65,536 one-byte chunks of a body, each a slice of a 64 KiB socket read, lived past
 * two scavenges, were promoted, and kept their reads until the next full collection (60 MB more). A plain
 * run was not measurably slower: its scavenges are more frequent and each is smaller. vitest would not set
 * it, and `take` does not compare it (only the entry, environment and arguments).
 */
const suiteThreadLimits = { maxYoungGenerationSizeMb: 8 }

const versionIn = (manifest: string) => String(JSON.parse(readFileSync(manifest, 'utf8')).version)

/** The version of the Vite vitest loads (its own dependency), or '' when it cannot be found. */
function viteVersionOf(vitestDir: string): string {
  try {
    return versionIn(createRequire(join(vitestDir, 'package.json')).resolve('vite/package.json'))
  } catch {
    return ''
  }
}

/** Whatever vitest's `threads` pool would pass to its thread, as far as it can be known before it is loaded. */
function expectedStart(vitestDir: string): { env: NodeJS.ProcessEnv; execArgv: string[] } {
  const production = process.env.NODE_ENV === 'production'
  return {
    // vitest's pool: process.env, then its own variables, then Vite's import.meta.env defaults.
    env: asVitestPasses({
      ...process.env,
      TEST: 'true',
      VITEST: 'true',
      NODE_ENV: process.env.NODE_ENV || 'test',
      VITEST_MODE: 'RUN',
      FORCE_TTY: isatty(1) ? 'true' : '',
      PROD: production ? '1' : '',
      DEV: production ? '' : '1',
      BASE_URL: '/',
      MODE: 'test',
    }),
    execArgv: [
      ...process.execArgv.filter(
        (arg) =>
          arg.startsWith('--cpu-prof') || arg.startsWith('--heap-prof') || arg.startsWith('--diagnostic-dir'),
      ),
      '--experimental-import-meta-resolve',
      '--require',
      join(vitestDir, 'suppress-warnings.cjs'),
      '--conditions',
      'node',
      '--conditions',
      production ? 'production' : 'development',
    ],
  }
}

/** vitest's pool copies each variable under its upper-case name on Windows, whose variables ignore case. */
function asVitestPasses(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (process.platform !== 'win32') return env
  const copied = { ...env }
  for (const name of Object.keys(env)) copied[name.toUpperCase()] = env[name]
  return copied
}

function sameEnv(a: Partial<NodeJS.ProcessEnv>, b: Partial<NodeJS.ProcessEnv>): boolean {
  const keys = Object.keys(a)
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key])
  )
}

/**
 * Starts vitest's thread now, or returns nothing when vitest or its thread's entry file is not where this
 * version of vitest keeps it (vitest then starts the thread itself, as usual).
 */
export function prestartVitestWorker(): PrestartedWorker | undefined {
  let vitestDir: string
  let vitestVersion: string
  try {
    const manifest = createRequire(import.meta.url).resolve('vitest/package.json')
    vitestDir = dirname(manifest)
    vitestVersion = versionIn(manifest)
  } catch {
    return undefined
  }
  const beginsEarly =
    vitestVersion.startsWith(`${provenVitest}.`) &&
    provenVite.some((major) => viteVersionOf(vitestDir).startsWith(`${major}.`)) &&
    process.versions.pnp === undefined &&
    !('Deno' in globalThis)
  const entrypoint = join(vitestDir, 'dist', 'workers', 'threads.js')
  if (!existsSync(entrypoint)) return undefined
  const expected = expectedStart(vitestDir)
  let thread: Worker | undefined
  // The module to load ahead comes later, on a port of its own: the thread's own port is vitest's.
  const { port1: preloads, port2: preloadPort } = new MessageChannel()
  try {
    thread = new Worker(threadScript(entrypoint), {
      ...expected,
      eval: true,
      workerData: { preloadPort },
      transferList: [preloadPort],
      stdout: true,
      stderr: true,
      resourceLimits: suiteThreadLimits,
    })
  } catch {
    // Node refused the arguments (say, a flag of its own it cannot pass on to a thread): vitest meets that
    // itself, as it would have without this.
    preloads.close()
    return undefined
  }
  // Until vitest takes it, the thread must not keep a run that ended early alive, nor crash it.
  thread.unref()
  let alive = true
  let begun = false
  const onError = () => {
    alive = false
  }
  thread.once('error', onError)
  thread.once('exit', onError)
  return {
    beginsEarly,
    take(wanted, env, execArgv) {
      const taken = thread
      if (!taken) {
        // A second thread asked for once the run began in the first would send its checks again.
        if (begun)
          throw new Error(
            'vitest asked for a second thread for the suite, whose checks had begun in the first: report it.',
          )
        return undefined
      }
      thread = undefined
      taken.off('error', onError)
      taken.off('exit', onError)
      const asVitestWould =
        resolve(wanted) === resolve(entrypoint) &&
        sameEnv(env, expected.env) &&
        execArgv.length === expected.execArgv.length &&
        execArgv.every((arg, at) => arg === expected.execArgv[at])
      if (alive && asVitestWould) {
        taken.ref()
        return taken
      }
      void taken.terminate()
      if (begun)
        throw new Error(
          alive
            ? `vitest ${vitestVersion} starts the suite's thread otherwise than this kit expects of vitest ${provenVitest}, and the run's checks had begun in the thread started ahead: run with vitest ${provenVitest}, or report it.`
            : 'The suite’s thread ended while the run’s checks ran in it (out of memory?): run it again; if it recurs, report it.',
        )
      return undefined
    },
    preload(url) {
      preloads.postMessage({ preload: url })
    },
    begin(target) {
      if (!beginsEarly || !thread || !alive) return
      preloads.postMessage({ begin: target })
      preloads.close()
      begun = true
    },
    dispose() {
      preloads.close()
      void thread?.terminate()
      thread = undefined
    },
  }
}

/**
 * The thread's script: vitest's entry, as vitest runs it, then the module it is told to load ahead, then
 * that module's `beginChecks` with the target it is given. A failure to load vitest's entry is the thread's
 * error (thrown on its own), as it would be with vitest's own start; one to load the module, or to begin the
 * checks, is the test file's to report (it loads the module, and asks for the checks, again).
 */
function threadScript(entrypoint: string): string {
  return `const { workerData } = require('node:worker_threads')
const port = workerData.preloadPort
const entry = import(${JSON.stringify(pathToFileURL(entrypoint).href)})
entry.catch((error) => setImmediate(() => { throw error }))
let loaded = Promise.reject(new Error('nothing preloaded'))
loaded.catch(() => {})
port.on('message', (message) => {
  if ('preload' in message) {
    loaded = entry.then(() => import(message.preload))
    loaded.catch(() => {})
  } else loaded.then((module) => module.beginChecks(message.begin)).catch(() => {})
})
// The port never keeps the thread alive: vitest's own messages do, once it is taken.
port.unref()`
}

/**
 * vitest's `threads` pool under another name, its first thread the one started ahead. What the thread runs
 * and how vitest talks to it are vitest's own: this only decides which thread.
 */
export function prestartedPool(prestarted: PrestartedWorker): PoolRunnerInitializer {
  return {
    name: 'prestarted-threads',
    createPoolWorker: (options) => new PrestartedThreadsWorker(options, prestarted),
  }
}

class PrestartedThreadsWorker implements PoolWorker {
  readonly name = 'prestarted-threads'
  private readonly entrypoint: string
  private readonly options: PoolOptions
  private readonly prestarted: PrestartedWorker
  private thread: Worker | undefined

  constructor(options: PoolOptions, prestarted: PrestartedWorker) {
    this.options = options
    this.prestarted = prestarted
    this.entrypoint = resolve(options.distPath, 'workers', 'threads.js')
  }

  private get started(): Worker {
    if (!this.thread) throw new Error('The conformance suite’s vitest thread was used before it started.')
    return this.thread
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.started.on(event, callback)
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.started.off(event, callback)
  }

  send(message: WorkerRequest): void {
    this.started.postMessage(message)
  }

  async start(): Promise<void> {
    const { env, execArgv, project } = this.options
    this.thread ??=
      this.prestarted.take(this.entrypoint, env, execArgv) ??
      new Worker(this.entrypoint, {
        env,
        execArgv,
        stdout: true,
        stderr: true,
        resourceLimits: suiteThreadLimits,
      })
    // As vitest's own pool does: what the thread prints goes where vitest prints.
    this.thread.stdout.pipe(project.vitest.logger.outputStream)
    this.thread.stderr.pipe(project.vitest.logger.errorStream)
  }

  async stop(): Promise<void> {
    const thread = this.thread
    if (!thread) return
    await thread.terminate()
    thread.stdout.unpipe(this.options.project.vitest.logger.outputStream)
    thread.stderr.unpipe(this.options.project.vitest.logger.errorStream)
    this.thread = undefined
  }

  deserialize(data: unknown): unknown {
    return data
  }
}
