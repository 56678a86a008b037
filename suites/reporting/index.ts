// The report: one model built from the checks' results, the baseline applied, and every format written from
// it.
// The face of suites/reporting/: other folders import from here, never from its files.
export { type Baseline, parseBaseline, writeBaseline } from './baseline-file.ts'
export { withBaseline } from './baseline-verdict.ts'
export { buildReport, type ConformanceReport, type TaggedCount } from './conformance-report.ts'
export { type ExitReason, exitReasonKinds, reasonText } from './exit-reason.ts'
export { parsePreviousReport } from './previous-report-file.ts'
export { toConsoleText, toJunitXml, toMarkdown } from './report-formats.ts'
export { toHtml } from './report-html.ts'
export type { MissingPreviousRun, PreviousRun } from './run-comparison.ts'
export { withPreviousRun } from './with-previous-run.ts'
