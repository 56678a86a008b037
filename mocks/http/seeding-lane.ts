// New sessions' first seedings, run one at a time in ~10 ms steps, with a bound on how many may wait.
import type { ResetJob, ResetOutcome } from '../core/mock-state.ts'

/** The longest the event loop is held by one step of seeding, in ms. */
const seedStepMs = 10

/**
 * Runs `job` in steps of ~`seedStepMs`, yielding to the event loop between them (setImmediate runs
 * after pending I/O callbacks, so waiting requests are answered between steps), then commits it.
 * `onStep` hears of each step's end (tests keep an ordering log with it).
 */
export async function runInSteps(job: ResetJob, onStep?: () => void): Promise<ResetOutcome> {
  while (!job.step(performance.now() + seedStepMs)) {
    onStep?.()
    await new Promise((resolve) => setImmediate(resolve))
  }
  onStep?.()
  return job.commit()
}

export interface SeedingLaneOptions {
  /**
   * Seedings held at once, the running one included; one more is refused (the HTTP mock answers 503 with
   * Retry-After). Bounds both the wait of a new session's requests and the memory built aside: only the
   * running seeding holds pets outside the shared store budget.
   */
  maxWaiting: number
  /** Hears of each step's end, for an ordering log. */
  onStep?: () => void
}

/** How many seedings wait or run at most unless told otherwise: with a million pets, ~6 s of waiting. */
export const defaultMaxWaitingSeedings = 4

/** One lane all new sessions' seedings share, so they run one after another rather than all at once. */
export interface SeedingLane {
  /**
   * Starts `begin()`'s job now when the lane is idle, finishing it at once if one step is enough (small
   * stores never wait); otherwise queues it. Undefined when `maxWaiting` are already held.
   */
  seed(begin: () => ResetJob): ResetOutcome | Promise<ResetOutcome> | undefined
}

/** @example const lane = createSeedingLane({ maxWaiting: 4 }); const outcome = lane.seed(() => state.beginReset()) */
export function createSeedingLane(options: SeedingLaneOptions): SeedingLane {
  let held = 0
  let tail: Promise<unknown> = Promise.resolve()
  return {
    seed(begin) {
      if (held === 0) {
        const job = begin()
        if (job.step(performance.now() + seedStepMs)) {
          options.onStep?.()
          return job.commit()
        }
        options.onStep?.()
        held++
        const running = runInSteps(job, options.onStep).finally(() => held--)
        tail = running.catch(() => undefined)
        return running
      }
      if (held >= options.maxWaiting) return undefined
      held++
      const running = tail.then(() => runInSteps(begin(), options.onStep)).finally(() => held--)
      tail = running.catch(() => undefined)
      return running
    },
  }
}
