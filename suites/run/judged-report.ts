// What a run's checks add up to, whoever ran them (vitest's thread, or the caller's): the report, and the
// line each block of checks prints as it ends.
import type { CheckResult } from '../engine/index.ts'
import { buildReport, type ConformanceReport } from '../reporting/index.ts'
import type { CheckMeta } from './conformance-meta.ts'

/** What the report says of the run whatever the checks found; the peak memory measured when it is built. */
export type ReportFacts = Pick<Parameters<typeof buildReport>[1], 'target' | 'limitations'> & {
  peakRss?: () => number
}

/** The report of a run whose every check ended: their results, and what the last one saw of the run. */
export function judgedReport(
  results: CheckResult[],
  run: CheckMeta['run'],
  facts: ReportFacts,
  startedAt: Date,
): ConformanceReport {
  return buildReport(results, {
    ...endOfRun(facts, startedAt),
    coverage: run?.coverage ?? [],
    created: {
      count: run?.created ?? 0,
      namePrefix: run?.namePrefix ?? '',
      ...(run?.createdIds ? { ids: run.createdIds } : {}),
      ...(run?.reusedIds?.length ? { reused: run.reusedIds } : {}),
      ...(run?.tagged ? { tagged: run.tagged } : {}),
      ...(run?.maxCreatedTotal === undefined ? {} : { maxTotal: run.maxCreatedTotal }),
    },
    ...(run?.traffic ? { traffic: run.traffic } : {}),
    ...(run?.desync ? { desync: run.desync } : {}),
    ...(run?.deprecatedUse?.length ? { deprecatedUse: run.deprecatedUse } : {}),
  })
}

/** The report of a run stopped before its checks ended (its deadline struck): it names what was pending. */
export function unfinishedReport(facts: ReportFacts, startedAt: Date, pending: string[]): ConformanceReport {
  return buildReport([], {
    ...endOfRun(facts, startedAt),
    coverage: [],
    created: { count: 0, namePrefix: '' },
    pending: pending.length > 0 ? pending : ['the suite itself (it did not finish)'],
  })
}

/** What every report says of the run as it ends: the facts, the peak memory measured now, its times. */
function endOfRun(facts: ReportFacts, startedAt: Date) {
  const { peakRss, ...known } = facts
  return { ...known, ...(peakRss ? { peakRssBytes: peakRss() } : {}), startedAt, finishedAt: new Date() }
}

/** The line a block of checks prints once each has ended: `✓ pets  4 passed, 1 skipped`. */
export function blockLine(name: string, results: CheckResult[]): string {
  const count = (outcome: CheckResult['outcome']) =>
    results.filter((result) => result.outcome === outcome).length
  const failed = count('failed')
  const counts = [
    `${count('passed')} passed`,
    ...(failed ? [`${failed} failed`] : []),
    ...(count('blocked') ? [`${count('blocked')} blocked`] : []),
    ...(count('skipped') ? [`${count('skipped')} skipped`] : []),
    ...(count('not-checked') ? [`${count('not-checked')} not checked (read-only)`] : []),
  ]
  return `  ${failed ? '✗' : '✓'} ${name.padEnd(16)} ${counts.join(', ')}`
}

/** How a pending check is named (a run stopped at its deadline): `pets › lists pets`. */
export const checkLabel = (block: string, check: string) => `${block} › ${check}`

/** A check, or the suite, that threw instead of handing over a result: the suite's fault, not the server's. */
export function erroredResult(group: string, name: string, message: string): CheckResult {
  return { group, name, outcome: 'errored', message, violations: [], warnings: [], advice: [], notes: [] }
}
