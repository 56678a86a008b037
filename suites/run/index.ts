// Running the suite: the stages of a run (options, pre-flight, Prism, vitest, reports, exit code) and
// vitest's side of it.
// The face of suites/run/: other folders import from here, never from its files.
export { checkOptions } from './check-options.ts'
export type { CheckMeta } from './conformance-meta.ts'
export { exitOutcome, withExitReason } from './exit-outcome.ts'
export { invokedCommand } from './invoked-command.ts'
export {
  blockLine,
  checkLabel,
  erroredResult,
  judgedReport,
  type ReportFacts,
  unfinishedReport,
} from './judged-report.ts'
export { startLoadingSuite } from './load-suite.ts'
export { type PactStateHandler, type PactStateOptions, pactStateHandlers } from './pact-state-handlers.ts'
export { preflight } from './preflight.ts'
export { type PrismInFront, putPrismInFront } from './prism-in-front.ts'
export { progressLine } from './progress-line.ts'
export { type RenderedReports, reportRenderer } from './render-reports.ts'
export { peakRssOf, peakRssOfRun } from './run-memory.ts'
export type { ConformanceOptions, ConformanceOutcome, RunDefaults } from './run-options.ts'
export { checksAtOnce, runSuite } from './run-suite.ts'
export { unjudgedOutcome, writeUnjudgedRun } from './unjudged-run.ts'
export { ConformanceReporter } from './vitest-reporter.ts'
