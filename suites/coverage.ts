import { contract } from '../contract/index.ts'
import { trafficFacts } from './bounded-request.ts'
import type { Check, RunState } from './check-context.ts'
import { CheckBlocked, CheckSkipped, ensure, RunDeadlineReached } from './exchange.ts'
import type { Violation } from './findings.ts'
import type { CheckResult } from './run-check.ts'

/** How a declared operation × status pair fared in a run. */
type CoverageState = 'seen' | 'not seen' | 'not checked (read-only)' | 'not reachable on this target'

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

/** How the checks of one group fared on one operation × status pair. */
export interface MatrixCell {
  checks: number
  passed: number
  /** Failed, timed out or errored. */
  failed: number
  /** Blocked, skipped or left out by the mode. */
  blocked: number
}

export interface MatrixRow {
  operation: string
  /** A status, or `no answer` for checks whose requests got none (or that sent none). */
  status: string
  /**
   * The declared pair's coverage; `undeclared`: a status the operation does not declare; `open`: the
   * operation declares no status (the contract leaves its answers open).
   */
  state: CoverageState | 'undeclared' | 'open' | 'no answer'
  /** By check group; a group absent from the map ran no check that got this answer. */
  cells: Record<string, MatrixCell>
}

/**
 * The coverage matrix: every declared operation × status pair (with the statuses a server answered that the
 * contract does not declare), by check group, counting the checks whose requests got that answer and how
 * they ended. A check counts in every pair its requests got; checks that got no answer at all count on a
 * last row per group, so that every check shows somewhere.
 * @example coverageMatrix(report.coverage, report.checks).rows[0] // { operation: 'listPets', status: '200', state: 'seen', cells: { listPets: { checks: 8, passed: 8, failed: 0, blocked: 0 } } }
 */
export function coverageMatrix(
  coverage: readonly CoverageRow[],
  checks: readonly Pick<CheckResult, 'group' | 'outcome' | 'exercised'>[],
): { groups: string[]; rows: MatrixRow[] } {
  const groups = [...new Set(checks.map((check) => check.group))]
  const rows = new Map<string, MatrixRow>(
    coverage.map((row) => [`${row.operation} ${row.status}`, { ...row, cells: {} }]),
  )
  const undeclared: MatrixRow[] = []
  const unanswered: MatrixRow = { operation: '', status: 'no answer', state: 'no answer', cells: {} }
  for (const check of checks) {
    const pairs = check.exercised ?? []
    const targets = pairs.map((pair) => {
      const known = rows.get(pair)
      if (known) return known
      // Operation ids may hold spaces (`GET /store/orders`); the status is the last word.
      const operation = pair.slice(0, pair.lastIndexOf(' '))
      const status = pair.slice(pair.lastIndexOf(' ') + 1)
      const declares = coverage.some((row) => row.operation === operation)
      const row: MatrixRow = { operation, status, state: declares ? 'undeclared' : 'open', cells: {} }
      rows.set(pair, row)
      undeclared.push(row)
      return row
    })
    for (const row of targets.length > 0 ? targets : [unanswered]) {
      row.cells[check.group] ??= { checks: 0, passed: 0, failed: 0, blocked: 0 }
      const cell = row.cells[check.group] as MatrixCell
      cell.checks++
      if (check.outcome === 'passed') cell.passed++
      else if (['failed', 'timed-out', 'errored'].includes(check.outcome)) cell.failed++
      else cell.blocked++
    }
  }
  // Declared rows first in the contract's order; an undeclared status after its operation's declared ones.
  const ordered = [...rows.values()].filter((row) => !undeclared.includes(row))
  for (const row of undeclared.sort((a, b) => a.status.localeCompare(b.status))) {
    const after = ordered.findLastIndex((other) => other.operation === row.operation)
    ordered.splice(after === -1 ? ordered.length : after + 1, 0, row)
  }
  return { groups, rows: Object.keys(unanswered.cells).length > 0 ? [...ordered, unanswered] : ordered }
}
