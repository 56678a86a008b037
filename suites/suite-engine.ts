// Everything the suite file (animal-store.conformance.ts) runs, in one module with no vitest in it, so that
// the runner's thread can load it ahead, while vitest is still starting in the command's own thread
// (prestarted-worker.ts); the suite file then finds it already loaded. The suite file imports only this.
export { desyncFacts, trafficFacts } from './bounded-request.ts'
export { type Check, createRunState } from './check-context.ts'
export { allChecks, finalChecks } from './checks/index.ts'
export type { CheckMeta } from './conformance-meta.ts'
export { coverageCheck, coverageTable } from './coverage.ts'
export type { Violation } from './findings.ts'
export { type CheckResult, runCheck } from './run-check.ts'
