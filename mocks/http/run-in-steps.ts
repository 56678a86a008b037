// Runs a reset's seeding in ~10 ms steps, giving the event loop back between them.
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
