// Adds to a finished report what changed since a previous run's report: the section every format shows.
import type { ConformanceReport } from './conformance-report.ts'
import { compareRuns, type MissingPreviousRun, type PreviousRun } from './run-comparison.ts'

/**
 * The report with its comparison to a previous run (`--previous`). Applied after the baseline, so findings
 * it accepts keep that mark in the comparison; the verdict and the exit code are not touched: what changed
 * is information, what fails the run is the findings.
 */
export function withPreviousRun(
  report: ConformanceReport,
  previous: PreviousRun | MissingPreviousRun,
): ConformanceReport {
  return { ...report, previous: compareRuns(report, previous) }
}
