// The report of a run that exited 2 without judging anything: it never started (options, pre-flight), or its
// process was stopped from outside (past --timeout, or by a signal).
import { type Output, writeReportFiles } from '../output/index.ts'
import { buildReport, type ConformanceReport, type ExitReason, reasonText } from '../reporting/index.ts'
import { ensureWritableDirectory } from './preflight.ts'
import { reportRenderer } from './render-reports.ts'
import type { ConformanceOutcome } from './run-options.ts'

export interface UnjudgedRun {
  target: ConformanceReport['target']
  reportDir: string
  startedAt: Date
  /** Why the run exited 2, and what to do. */
  reason: ExitReason
  /** A stopped run's own peak memory, read before it was stopped, when it could be: the report adds it. */
  runPeakRssBytes?: number | undefined
}

/**
 * Writes the four reports of a run that judged nothing, so that a pipeline finds the reason where it always
 * looks: verdict incomplete, no check, the reason in every format. Returns the report, or the reason the
 * report folder cannot be written either.
 */
export function writeUnjudgedRun(output: Output, run: UnjudgedRun): ConformanceReport | ExitReason {
  const unwritable = ensureWritableDirectory(run.reportDir)
  if (unwritable) return unwritable
  const judged = buildReport([], {
    target: run.target,
    limitations: [],
    startedAt: run.startedAt,
    finishedAt: new Date(),
    coverage: [],
    created: { count: 0, namePrefix: '' },
    peakRssBytes: process.resourceUsage().maxRSS * 1024 + (run.runPeakRssBytes ?? 0),
  })
  const { report, texts } = reportRenderer(
    [],
    undefined,
    output.secrets,
  )({
    ...judged,
    verdict: 'incomplete',
    reason: run.reason,
  })
  writeReportFiles(output, run.reportDir, texts)
  return report
}

/**
 * The outcome of a run that stops before judging anything, with its reports written when it knows where
 * they go (a run whose report folder is the problem has none).
 */
export function unjudgedOutcome(
  reason: ExitReason,
  reports: { output: Output; reportDir: string; target: ConformanceReport['target'] } | undefined,
  startedAt: Date,
  runPeakRssBytes?: number,
): ConformanceOutcome {
  const written =
    reports && writeUnjudgedRun(reports.output, { ...reports, startedAt, reason, runPeakRssBytes })
  if (written && 'verdict' in written && written.reason)
    return { exitCode: 2, problem: reasonText(written.reason), reason: written.reason, report: written }
  // The reason stays the run's own; that its reports could not be written either is said after it.
  const unwritten = written && 'kind' in written ? `\n${reasonText(written)}` : ''
  return { exitCode: 2, problem: `${reasonText(reason)}${unwritten}`, reason }
}
