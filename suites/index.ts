// The conformance suite, programmatically: `animal-store-contract-kit/conformance`.
export type { ConformanceReport } from './conformance-report.ts'
export type { Finding, RuleId, Violation } from './findings.ts'
export { redactedMarker, type SecretKind, Secrets } from './output/secrets.ts'
export type { CheckResult, Outcome } from './run-check.ts'
export { type ConformanceOptions, type ConformanceOutcome, runConformance } from './run-conformance.ts'
