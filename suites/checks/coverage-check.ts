// The coverage table of declared operation × status pairs, and the last check, which fails on unseen ones.
import { contract } from '../../contract/index.ts'
import type { Check, RunState } from '../engine/index.ts'
import { CheckBlocked, CheckSkipped, ensure, RunDeadlineReached } from '../engine/index.ts'
import type { Violation } from '../judging/index.ts'
import { trafficFacts } from '../network/index.ts'

/** How a declared operation × status pair fared in a run. */
export type CoverageState = 'seen' | 'not seen' | 'not checked (read-only)' | 'not reachable on this target'

export interface CoverageRow {
  operation: string
  status: string
  state: CoverageState
}

/** Every operation × declared status pair (operations that declare no responses aside). */
function declaredPairs(): { operation: string; status: string; writes: boolean }[] {
  return contract.operations
    .filter((operation) => operation.declaresResponses)
    .flatMap((operation) =>
      operation.responses
        .filter((response) => /^\d{3}$/.test(response.status))
        .map((response) => ({
          operation: operation.id,
          status: response.status,
          writes: operation.method !== 'GET',
        })),
    )
}

/** The coverage table: each declared pair and whether some request got that answer. */
export function coverageTable(run: Pick<RunState, 'seen' | 'excused' | 'target'>): CoverageRow[] {
  return declaredPairs().map(({ operation, status, writes }) => {
    const pair = `${operation} ${status}`
    const state: CoverageState = run.seen.has(pair)
      ? 'seen'
      : writes && run.target.readOnly
        ? 'not checked (read-only)'
        : run.excused.has(pair)
          ? 'not reachable on this target'
          : 'not seen'
    return { operation, status, state }
  })
}

/**
 * The last check of a run: every declared pair was produced by some request meant to produce it.
 */
export const coverageCheck = (run: RunState, violated: ReadonlyMap<string, Violation>): Check => ({
  group: 'coverage',
  name: 'every declared operation × status pair was exercised',
  async run({ warn }) {
    // Requests staging refused for good were never answered: the gaps they leave say nothing of the server.
    if (trafficFacts(run.target.network).refused > 0)
      throw new RunDeadlineReached('staging is throttling: coverage cannot be judged on a run it cut short')
    const rows = coverageTable(run)
    for (const row of rows.filter((row) => row.state === 'not reachable on this target'))
      warn(`${row.operation} ${row.status} was not exercised: this target gave no way to.`)
    const missing = rows.filter((row) => row.state === 'not seen')
    // Checks --max-writes skipped never sent what would have produced these pairs.
    if (missing.length > 0 && run.created.capped)
      throw new CheckSkipped(
        `--max-writes ${run.target.maxWrites} skipped the checks that would produce ${missing.map((row) => `${row.operation} ${row.status}`).join(', ')}.`,
      )
    // A gap is nearly always a consequence: the checks meant to produce the pair failed or were blocked on a
    // finding already reported. Only on a run with no other finding is it a finding of its own.
    const explained =
      missing.map((row) => violated.get(row.operation)).find(Boolean) ?? violated.values().next().value
    if (missing.length > 0 && explained) throw new CheckBlocked(explained)
    ensure(
      missing.length === 0,
      {
        rule: 'coverage',
        where: missing.map((row) => `${row.operation} ${row.status}`).join(', '),
        operation: missing[0]?.operation ?? '',
      },
      `No request got these declared answers: ${missing.map((row) => `${row.operation} ${row.status}`).join(', ')}. The server never produced them for requests meant to.`,
    )
  },
})
