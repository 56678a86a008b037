// The mock in Node tests: `animal-store-contract-kit/mocks/node`.
import { type SetupServer, setupServer } from 'msw/node'
import { createMockApi, type MockApi, type MockApiOptions } from './create-mock-api.ts'

export interface NodeMock {
  /** MSW's server, not yet listening: call `listen()` (and `close()`) around your tests. */
  server: SetupServer
  /** The mock behind it: its store, `reset()`, keys. */
  api: MockApi
}

/**
 * An MSW `setupServer` answering the Animal Store API from a fresh, isolated mock. Global `fetch` and
 * `node:http` are intercepted (undici's own `request` is not).
 * @example
 * const { server, api } = setupMockServer({ seed: 1, pets: 5, apiKeys: ['test-key'] })
 * beforeAll(() => server.listen()); afterEach(() => api.reset()); afterAll(() => server.close())
 */
export function setupMockServer(options: MockApiOptions = {}): NodeMock {
  const api = createMockApi(options)
  return { server: setupServer(...api.handlers), api }
}

export { createMockApi, type MockApi, type MockApiOptions }
