import {
  type Check,
  CheckSkipped,
  createCheckContext,
  createRunState,
  type RunState,
} from './check-context.ts'
import { checksFor } from './checks/index.ts'
import { ensureCoverage } from './coverage.ts'
import { CheckFailure, type Exchange } from './exchange.ts'
import type { ConformanceTarget } from './target.ts'

export interface CheckResult {
  group: string
  name: string
  outcome: 'passed' | 'failed' | 'skipped'
  message?: string
  /** The traffic that shows the failure (failed checks only). */
  exchanges: Exchange[]
  warnings: string[]
}

/**
 * Runs one check in its own context and turns what it throws into a result. Shared by the vitest file and
 * the in-process runner, so both judge a check the same way.
 */
export async function runCheck(check: Check, run: RunState): Promise<CheckResult> {
  const context = createCheckContext(run)
  const base = { group: check.group, name: check.name, warnings: context.recorder.warnings }
  try {
    await check.run(context)
    return { ...base, outcome: 'passed', exchanges: [] }
  } catch (error) {
    if (error instanceof CheckSkipped)
      return { ...base, outcome: 'skipped', message: error.message, exchanges: [] }
    const exchanges =
      error instanceof CheckFailure && error.exchanges.length > 0
        ? error.exchanges
        : context.recorder.exchanges.slice(-3)
    return { ...base, outcome: 'failed', message: (error as Error).message, exchanges }
  }
}

/** The last check of a run: every declared operation × status pair was seen. */
export const coverageCheck = (run: RunState): Check => ({
  group: 'coverage',
  name: 'every declared operation × status pair was exercised',
  run: async ({ warn }) => ensureCoverage(run.seen, run.target.readOnly, run.excused, warn),
})

/**
 * Runs the whole suite in this process, `concurrency` checks at a time, then coverage. The vitest file
 * is the suite's front door (reports, progress); this is for callers that only need the verdicts.
 */
export async function runChecks(target: ConformanceTarget, concurrency = 8): Promise<CheckResult[]> {
  const run = createRunState(target)
  const checks = checksFor(target.readOnly)
  const results: CheckResult[] = new Array(checks.length)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < checks.length; index = next++) {
      results[index] = await runCheck(checks[index] as Check, run)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, checks.length) }, worker))
  results.push(await runCheck(coverageCheck(run), run))
  return results
}
