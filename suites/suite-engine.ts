// Everything the suite file (animal-store.conformance.ts) runs, in one module with no vitest in it, so that
// the runner's thread can load it ahead, while vitest is still starting in the command's own thread
// (prestarted-worker.ts); the suite file then finds it already loaded. The suite file imports only this.

export { coverageCheck, coverageTable } from './checks/coverage-check.ts'
export { allChecks, finalChecks } from './checks/index.ts'
export { type Check, createRunState } from './engine/check-context.ts'
export { type CheckResult, runCheck } from './engine/run-check.ts'
export type { Violation } from './judging/findings.ts'
export { desyncFacts, trafficFacts } from './network/bounded-request.ts'
export type { CheckMeta } from './run/conformance-meta.ts'
