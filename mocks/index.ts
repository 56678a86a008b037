// The mock for any runtime (browser and Node): `animal-store-contract-kit/mocks`.
export { defaultApiKey } from './core/api-keys.ts'
export { controlPath, maxBodyBytes } from './core/handle-request.ts'
export type { MockRequest, MockResponse } from './core/mock-http.ts'
export type { SeedOptions } from './core/mock-state.ts'
export type { PetStore } from './core/pet-store.ts'
export { defaultPetCount, defaultSeed, seedPets } from './core/seed-pets.ts'
export { createMockApi, type MockApi, type MockApiOptions } from './create-mock-api.ts'
export { createMswHandlers } from './msw-handlers.ts'
