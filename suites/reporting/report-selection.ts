// What a run left out or accepted (excluded rules, baseline entries), in words every report format shares.
import type { BaselineEntry } from './baseline-file.ts'
import type { ConformanceReport } from './conformance-report.ts'

/**
 * What a run was told to leave out or accept, in the words every report format uses: the rules excluded
 * with --checks / --exclude-checks, and what a --baseline accepted, expired or no longer matched.
 */

/** The verdict line's qualifier: `with 1 check excluded; 2 findings accepted by the baseline`, or ''. */
export function verdictQualifier(report: ConformanceReport): string {
  const parts = [
    ...(report.excludedRules?.length
      ? [`with ${plural(report.excludedRules.length, 'check')} excluded`]
      : []),
    ...(report.baseline?.known.length
      ? [`${plural(report.baseline.known.length, 'finding')} accepted by the baseline`]
      : []),
    ...(report.baseline?.expired.length
      ? [`${plural(report.baseline.expired.length, 'accepted finding')} expired`]
      : []),
  ]
  return parts.length > 0 ? ` (${parts.join('; ')})` : ''
}

/** One line per excluded rule and per baseline entry, for a report's "left out or accepted" section. */
export function selectionLines(report: ConformanceReport): string[] {
  const entry = (item: BaselineEntry) =>
    `${item.id}: ${item.reason}${item.expires ? ` (until ${item.expires})` : ''}`
  const baseline = report.baseline
  return [
    ...(report.excludedRules ?? []).map(
      (rule) => `excluded, not judged: ${rule} (--checks / --exclude-checks)`,
    ),
    ...(baseline?.known ?? []).map((item) => `known, accepted in ${baseline?.path}: ${entry(item)}`),
    ...(baseline?.expired ?? []).map((item) => `expired, fails again: ${entry(item)}`),
    ...(baseline?.stale ?? []).map(
      (item) => `stale, no finding matched it: ${entry(item)}; remove it from ${baseline?.path}`,
    ),
  ]
}

/** The ids of findings a baseline accepts: reported, but not failing the run. */
export function knownFindingIds(report: ConformanceReport): Set<string> {
  return new Set(report.baseline?.known.map((entry) => entry.id) ?? [])
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
