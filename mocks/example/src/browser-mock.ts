import { defaultPetCount, defaultSeed } from 'animal-store-contract-kit/mocks'
import { startBrowserMock } from 'animal-store-contract-kit/mocks/browser'

// Development only: MSW's service worker answers /v1/* on this origin from a stateful mock.
// Write the worker script into your public folder once: npx animal-store-mock worker public
// Same seed and count as `npm start` by default, so both show the same pets. It accepts the key
// "animal-store-mock-key" (pass apiKeys to choose others): send Authorization: Bearer animal-store-mock-key.
export function startMockApi(seed = defaultSeed, pets = defaultPetCount) {
  return startBrowserMock({ seed, pets, baseUrl: '/v1', quiet: true })
}
