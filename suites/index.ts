// The conformance suite, programmatically: `animal-store-contract-kit/conformance`.

export type { CheckResult, Outcome } from './engine/run-check.ts'
export type { Finding, RuleId, Violation } from './judging/findings.ts'
export { redactedMarker, type SecretKind, Secrets } from './output/secrets.ts'
export type { ConformanceReport } from './reporting/conformance-report.ts'
export { type ConformanceOptions, type ConformanceOutcome, runConformance } from './run-conformance.ts'
