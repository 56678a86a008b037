// The report of a run stopped from outside (its process ended past --timeout, or by a signal): incomplete.
import { type Output, writeReportFiles } from '../output/index.ts'
import { buildReport, type ConformanceReport } from '../reporting/index.ts'
import { ensureWritableDirectory } from './preflight.ts'
import { reportRenderer } from './render-reports.ts'

export interface StoppedRun {
  target: ConformanceReport['target']
  reportDir: string
  startedAt: Date
  /** Why the run ended without its own report, and what to do: the one pending entry. */
  reason: string
  /** The stopped run's own peak memory, read before it was stopped, when it could be: the report adds it. */
  runPeakRssBytes?: number | undefined
}

/**
 * Writes the four reports of a run whose process was stopped before it wrote its own, so that a pipeline
 * finds a report and its reason where it always looks: verdict incomplete, nothing judged. Returns the
 * report, or a sentence when the report folder cannot be written either.
 */
export function writeStoppedRun(output: Output, run: StoppedRun): ConformanceReport | string {
  const unwritable = ensureWritableDirectory(run.reportDir)
  if (unwritable) return unwritable
  const judged = buildReport([], {
    target: run.target,
    limitations: [],
    startedAt: run.startedAt,
    finishedAt: new Date(),
    coverage: [],
    created: { count: 0, namePrefix: '' },
    pending: [run.reason],
    peakRssBytes: process.resourceUsage().maxRSS * 1024 + (run.runPeakRssBytes ?? 0),
  })
  const { report, texts } = reportRenderer([], undefined, output.secrets)(judged)
  writeReportFiles(output, run.reportDir, texts)
  return report
}
