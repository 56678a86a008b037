// The conformance suite, programmatically: `animal-store-contract-kit/conformance`.

export type { CheckResult, Outcome } from './engine/index.ts'
export type { Finding, RuleId, Violation } from './judging/index.ts'
export { redactedMarker, type SecretKind, Secrets } from './output/index.ts'
export type { ConformanceReport, ExitReason } from './reporting/index.ts'
export {
  type PactStateHandler,
  type PactStateOptions,
  pactStateHandlers,
} from './run/index.ts'
export { type ConformanceOptions, type ConformanceOutcome, runConformance } from './run-conformance.ts'
