// Running checks: the run's state and target, building and sending a check's requests, and the ways a check
// ends.
// The face of suites/engine/: other folders import from here, never from its files.
export {
  bodyOf,
  type Check,
  type CheckContext,
  type CreatedPet,
  changedValue,
  createPetStep,
  createRunState,
  differences,
  duplicateIds,
  listPets,
  type RunState,
} from './check-context.ts'
export { CheckBlocked, CheckFailure, CheckSkipped, ensure, RunDeadlineReached } from './check-outcomes.ts'
export { type CheckResult, type Outcome, runCheck } from './run-check.ts'
export { type StageGate, stageGate } from './stage-gate.ts'
export type { ConformanceTarget, LoadedPact } from './target.ts'
