// Everything the suite file (animal-store.conformance.ts) runs, in one module with no vitest in it, so that
// the runner's thread can load it ahead, while vitest is still starting in the command's own thread
// (prestarted-worker.ts); the suite file then finds it already loaded. The suite file imports only this.

export {
  allChecks,
  coverageCheck,
  coverageTable,
  finalChecks,
  lastChecks,
  pactChecks,
  pactDeprecatedUse,
} from './checks/index.ts'
export { type Check, type CheckResult, createRunState, runCheck } from './engine/index.ts'
export type { Violation } from './judging/index.ts'
export { desyncFacts, trafficFacts } from './network/index.ts'
export type { CheckMeta } from './run/index.ts'
