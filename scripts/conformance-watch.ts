// The conformance command's outer process: it starts the run as a child and ends it from outside when it
// outlives --timeout, whatever the run is doing (docs/decisions/outside-deadline.md).
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Set by the outer process for the run it watches: the seed it chose, which the run uses when given none. */
const watchedVariable = 'ANIMAL_STORE_CONFORMANCE_WATCHED_SEED'

// How long past --timeout the outer process waits before it stops the run itself: the run's own backstop
// fires 5 s past it, and writing the reports of a large run takes a few seconds more.
export const graceSeconds = 10

/** Whether this process is the run a watching process started. */
export function isWatchedRun(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[watchedVariable] !== undefined
}

/** The seed the watching process chose (so that its report of a stopped run names the run's seed). */
export function watchedSeed(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const seed = Number(env[watchedVariable])
  return env[watchedVariable] !== undefined && Number.isSafeInteger(seed) ? seed : undefined
}

/**
 * In the run: ends it when the process watching it is gone (killed outright, so it could not stop the run
 * itself), rather than run on unwatched. Costs nothing: unref'd, it never keeps the run alive.
 */
export function watchParent(): void {
  if (!isWatchedRun()) return
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) process.exit(2)
  }, 500).unref()
}

/**
 * Starts the run (this same command, in a child process of its own process group) and waits for it:
 * its exit code is this process's. Past --timeout and the grace, or when the run dies of a signal, the
 * whole group (the run, Prism) is killed and this process writes the incomplete report itself and exits 2.
 * The run is started first, and the options are read meanwhile: on two cores, the watch costs the run's
 * start almost nothing.
 */
export async function watchConformanceRun(argv: readonly string[]): Promise<never> {
  const startedAt = new Date()
  const seed = Math.floor(Math.random() * 2 ** 31)
  const child = spawn(process.execPath, [...process.execArgv, ...launcher(), ...process.argv.slice(1)], {
    stdio: 'inherit',
    // Its own process group: Prism, started by the run, is stopped with it.
    detached: true,
    env: runEnvironment(process.env, seed),
  })
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }))
    child.once('error', () => done({ code: null, signal: null }))
  })
  let forwarded: NodeJS.Signals | undefined
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => {
      forwarded = signal
      stopGroup(child, signal)
    })

  const { stoppedRunPlan } = await import('./conformance-stopped.ts')
  // Whatever goes wrong reading them here, the run reads them too and says so: only the deadline is lost.
  const plan = await stoppedRunPlan(argv, seed, startedAt).catch(() => undefined)
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<'deadline'>((done) => {
    if (plan) timer = setTimeout(() => done('deadline'), (plan.timeoutSeconds + graceSeconds) * 1000)
  })
  const first = await Promise.race([ended, deadline])
  clearTimeout(timer)
  if (first !== 'deadline' && (first.code !== null || forwarded)) process.exit(first.code ?? 2)
  // Loaded only now: the report writer holds the suite's output boundary and report model.
  const reporter = await plan?.reporter().catch(() => undefined)
  const runPeak = reporter?.peakRssOf(child.pid)
  stopGroup(child, 'SIGKILL')
  if (!plan || !reporter) process.exit(2)
  reporter.write(
    first === 'deadline'
      ? {
          kind: 'deadline',
          message: `The run did not end within --timeout (${plan.timeoutSeconds} s) and ${graceSeconds} s of grace: its process was stopped from outside.`,
          advice: 'Look at what the server sends that makes the run this slow, or raise --timeout.',
        }
      : {
          kind: 'stopped',
          message: `The run's process ended without a report (${first.signal ?? 'it could not be started'}): stopped from outside, or out of memory.`,
          advice: 'Run it again; if it recurs, please report it.',
        },
    runPeak,
  )
  process.exit(2)
}

/**
 * The run's environment: this process's, the seed it chose, and glibc's malloc told to give freed bodies
 * back. glibc (mallopt(3)) serves a block of 128 KiB or more from a mapping of its own and unmaps it when
 * freed, until it frees one such block: from then on it raises that threshold to the block's size (up to
 * 32 MiB) and serves blocks below it from its heaps, which keep what is freed. A run reads, decodes and
 * frees thousands of bodies of up to 4 MiB when a server makes every one that large, and the heaps kept
 * 40 to 100 MB that nothing used. A threshold set from the start holds, so every freed body goes back to
 * the system. Left as the user set it, if at all; other allocators (musl, macOS) ignore the variable.
 */
export function runEnvironment(env: NodeJS.ProcessEnv, seed: number): NodeJS.ProcessEnv {
  const mallocSet =
    env.MALLOC_MMAP_THRESHOLD_ !== undefined || /mmap_threshold/.test(env.GLIBC_TUNABLES ?? '')
  return {
    ...env,
    ...(mallocSet ? {} : { MALLOC_MMAP_THRESHOLD_: String(128 * 1024) }),
    [watchedVariable]: String(seed),
  }
}

/**
 * What starts the run the way this process was started: in the repository the entry is TypeScript, run
 * through scripts/launch.mjs (which leaves the .ts entry in process.argv); the built package runs its .js.
 */
function launcher(): string[] {
  return process.argv[1]?.endsWith('.ts') ? [fileURLToPath(new URL('./launch.mjs', import.meta.url))] : []
}

/** Sends `signal` to the run's whole process group (the run and Prism), once the group exists. */
function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // The group is gone already, or the platform has no process groups (Windows): the run itself, then.
    child.kill(signal)
  }
}
