// The exit-2 reason of --max-created-total: earlier runs left more tagged pets on the target than allowed.
import type { ConformanceReport } from '../reporting/index.ts'

/**
 * Why the run exits 2 when the target held more pets named by earlier runs than --max-created-total (it
 * created none), with what to do: the kind `too-many-created`. Not a verdict on the server.
 */
export function tooManyCreatedReason(
  report: ConformanceReport,
): { kind: 'too-many-created'; message: string; advice: string } | undefined {
  const { tagged, maxTotal, namePrefix } = report.created
  if (!tagged || tagged.unknown || maxTotal === undefined || tagged.seen <= maxTotal) return undefined
  const prefix = namePrefix.replace(/-[0-9a-f]{6}$/, '')
  return {
    kind: 'too-many-created',
    message: `The target already holds ${tagged.atLeast ? 'at least ' : ''}${tagged.seen} pets named "${prefix}-…" by earlier runs, more than --max-created-total ${maxTotal}: this run created none, and the checks that create were skipped.`,
    advice: `Delete them in the target's database (every name starting with "${prefix}-"; see "Cleaning up" in docs/conformance.md), or raise --max-created-total.`,
  }
}
