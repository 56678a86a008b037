// The sentence every report says about the kit's pets on the target: reused from earlier runs, tagged ones seen.
import type { ConformanceReport } from './conformance-report.ts'

/**
 * What the run saw of the pets earlier runs left and what it reused, as one sentence, or nothing when the
 * run never counted them (it did not start its checks). Numbers and the run's own prefix only: no server text.
 */
export function petsOnTargetText(report: ConformanceReport): string | undefined {
  const { tagged, reused, maxTotal, namePrefix } = report.created
  if (!tagged) return undefined
  const prefix = namePrefix.replace(/-[0-9a-f]{6}$/, '')
  const pages =
    'on the first page of 100 of GET /pets and of each status filter, which is all the contract lets a run see'
  const seen = tagged.unknown
    ? `Pets named "${prefix}-…" by earlier runs: not counted (the list could not be read).`
    : `Pets named "${prefix}-…" by earlier runs, seen before this run created any: ${tagged.atLeast ? 'at least ' : ''}${tagged.seen} (${pages}).`
  const reuse =
    reused && reused.length > 0
      ? ` Reading checks reused ${reused.length === 1 ? 'pet' : 'pets'} ${reused.filter((id) => /^-?\d{1,20}$/.test(id)).join(', ')} instead of creating ${reused.length === 1 ? 'one' : 'them'}.`
      : ''
  const guard =
    maxTotal === undefined
      ? ''
      : tagged.seen > maxTotal
        ? ` More than --max-created-total ${maxTotal}: nothing was created; clean them up (docs/conformance.md, "Cleaning up").`
        : ` --max-created-total ${maxTotal}: under it.`
  return `${seen}${reuse}${guard}`
}
