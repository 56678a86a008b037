// The mock for any runtime (browser and Node): `animal-store-contract-kit/mocks`.
export { defaultApiKey } from './core/api-keys.ts'
export {
  type ConditionOptions,
  type FaultKind,
  faultHeader,
  faultKinds,
  type Latency,
} from './core/conditions.ts'
export { controlPath, maxBodyBytes } from './core/handle-request.ts'
export { defaultMemoryBudget, type MemoryBudget } from './core/memory-budget.ts'
export type { MockRequest, MockResponse } from './core/mock-http.ts'
export type { MockState, ResetJob, ResetOutcome, SeedOptions } from './core/mock-state.ts'
export type { PetStore } from './core/pet-store.ts'
export { defaultJournalSize, type JournalEntry } from './core/request-journal.ts'
export { type ScenarioName, scenarioNames } from './core/scenarios.ts'
export { defaultPetCount, defaultSeed, seedPets } from './core/seed-pets.ts'
export { createMockApi, type MockApi, type MockApiOptions } from './create-mock-api.ts'
export { createMswHandlers } from './msw-handlers.ts'
export { type UnhandledRequestStrategy, unhandledRequests } from './unhandled-requests.ts'
