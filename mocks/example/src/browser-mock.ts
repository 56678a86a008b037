import { startBrowserMock } from 'animal-store-contract-kit/mocks/browser'

// Development only: MSW's service worker answers /v1/* on this origin from a stateful mock.
// Write the worker script into your public folder once: npx animal-store-mock worker public
export function startMockApi(seed = 1, pets = 50) {
  return startBrowserMock({ seed, pets, baseUrl: '/v1', quiet: true })
}
