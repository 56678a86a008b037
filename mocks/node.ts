// The mock in Node tests: `animal-store-contract-kit/mocks/node`.
import { type SetupServer, setupServer } from 'msw/node'
import { createMockApi, type MockApi, type MockApiOptions } from './create-mock-api.ts'
import { type UnhandledRequestStrategy, unhandledRequests } from './unhandled-requests.ts'

export interface NodeMock {
  /** MSW's server, not yet listening: call `listen()` (and `close()`) around your tests. */
  server: SetupServer
  /** The mock behind it: its store, `reset()`, keys. */
  api: MockApi
  /**
   * `server.listen()` with MSW's unhandled-request option under the name your msw major reads (msw 2:
   * `onUnhandledRequest`, msw 3: `onUnhandledFrame`). Default `'error'`: a request no handler answers
   * fails the test instead of going out to the network.
   */
  listen(onUnhandled?: UnhandledRequestStrategy): void
}

/**
 * An MSW `setupServer` answering the Animal Store API from a fresh, isolated mock. Global `fetch` and
 * `node:http` are intercepted (undici's own `request` is not).
 * @example
 * const { server, api, listen } = setupMockServer({ seed: 1, pets: 5, apiKeys: ['test-key'] })
 * beforeAll(() => listen()); afterEach(() => api.reset()); afterAll(() => server.close())
 */
export function setupMockServer(options: MockApiOptions = {}): NodeMock {
  const api = createMockApi(options)
  const server = setupServer(...api.handlers)
  return { server, api, listen: (onUnhandled = 'error') => server.listen(unhandledRequests(onUnhandled)) }
}

export type { PactDocument } from './core/pact-document.ts'
export { describeRecording, type PactRecorder, type RecordOptions } from './core/pact-recorder.ts'
export { writePact } from './pact-file.ts'
export { mockRunId, mockSessionName } from './session-names.ts'
export { createMockApi, type MockApi, type MockApiOptions, type UnhandledRequestStrategy, unhandledRequests }
