// A run's checks begun in vitest's thread before vitest asks for them, and handed to the suite file once it does.
import { type CheckBlock, type StagedCheck, stageChecks } from './check-stages.ts'
import type { ConformanceTarget } from './engine/index.ts'
import { checksAtOnce } from './run/index.ts'

/**
 * The blocks' checks, started now in their order, at most `atOnce` at a time (the next as one ends), and
 * returned as the same blocks whose `run` gives each check's one outcome: whoever then runs them in the same
 * order and width (vitest, the suite file) starts nothing twice and waits only for what is not over yet. A
 * check asked for before its turn starts then, and is not started again when its turn comes.
 */
export function startInOrder(blocks: readonly CheckBlock[], atOnce: number): CheckBlock[] {
  const once = (check: StagedCheck): StagedCheck => {
    let outcome: ReturnType<StagedCheck['run']> | undefined
    return { name: check.name, run: () => (outcome ??= check.run()) }
  }
  const started = blocks.map((block) => ({ name: block.name, checks: block.checks.map(once) }))
  const queue = started.flatMap((block) => block.checks)
  let next = 0
  const startNext = (): void => {
    const check = queue[next++]
    // A check's failure is its test's to report (the suite file awaits the same outcome): here it only frees
    // the place for the next.
    check?.run().then(startNext, startNext)
  }
  for (let slot = 0; slot < Math.min(atOnce, queue.length); slot++) startNext()
  return started
}

/**
 * The run this thread's checks belong to, on the global object: vitest loads the suite file's own copy of
 * this module apart from the one the thread loaded ahead when the suite lives outside node_modules (a
 * linked or folder install, a checkout's dist), and a variable of the module would not be seen there.
 */
const claimed = Symbol.for('animal-store-contract-kit.early-checks')

/**
 * The blocks of the run `run` in this thread: those already claimed for it (begun ahead, or handed to the
 * suite file), or `make`'s, claimed now. Whoever comes second gets the first one's, so a run's checks are
 * made, and started, once per thread whichever of the two asks first.
 */
export function claimRun(run: string, make: () => CheckBlock[]): CheckBlock[] {
  const slot = globalThis as { [claimed]?: { run: string; blocks: CheckBlock[] } }
  const current = slot[claimed]
  if (current?.run === run) return current.blocks
  const blocks = make()
  slot[claimed] = { run, blocks }
  return blocks
}

/** What tells one run's target from another's: the same run's target arrives twice, as two copies. */
const runOf = (target: ConformanceTarget) =>
  JSON.stringify([target.baseUrl, target.seed, target.runDeadline, target.namePrefix])

/**
 * Starts the run's checks in this thread now, as the suite file would once vitest has loaded and asked
 * for them (docs/decisions/prestarted-vitest-thread.md): called by the thread started ahead, once the run's
 * target is known. Nothing when the suite file already has them.
 */
export function beginChecks(target: ConformanceTarget): void {
  claimRun(runOf(target), () => startInOrder(stageChecks(target), checksAtOnce))
}

/** The run's checks for the suite file: those begun ahead for this target, or new ones, not yet started. */
export function suiteChecks(target: ConformanceTarget): CheckBlock[] {
  return claimRun(runOf(target), () => stageChecks(target))
}
