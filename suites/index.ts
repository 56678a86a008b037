// The conformance suite, programmatically: `animal-store-contract-kit/conformance`.
export type { CheckReport, ConformanceReport } from './conformance-reporter.ts'
export { type ConformanceOptions, type ConformanceOutcome, runConformance } from './run-conformance.ts'
