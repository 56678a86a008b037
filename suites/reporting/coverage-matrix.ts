import type { CoverageRow, CoverageState } from '../checks/index.ts'
import type { CheckResult } from '../engine/index.ts'

// The coverage matrix of the HTML report, apart from the coverage check: the command renders it, and
// importing the check would load the contract and its compiled validators into the command's start.

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
  // Statuses are codes, compared as plain strings: a first localeCompare loads ICU's collator (~8 ms).
  for (const row of undeclared.sort((a, b) => (a.status < b.status ? -1 : a.status > b.status ? 1 : 0))) {
    const after = ordered.findLastIndex((other) => other.operation === row.operation)
    ordered.splice(after === -1 ? ordered.length : after + 1, 0, row)
  }
  return { groups, rows: Object.keys(unanswered.cells).length > 0 ? [...ordered, unanswered] : ordered }
}
