import type { RequestHandler } from 'msw'
import { contract } from '../contract/index.ts'
import { defaultApiKey } from './core/api-keys.ts'
import { createRequestHandler } from './core/handle-request.ts'
import type { MockRequest, MockResponse } from './core/mock-http.ts'
import { createMockState, type SeedOptions } from './core/mock-state.ts'
import type { PetStore } from './core/pet-store.ts'
import { createMswHandlers } from './msw-handlers.ts'

export { defaultApiKey }

export interface MockApiOptions extends SeedOptions {
  /** Keys accepted as `Authorization: Bearer <key>` (default: `animal-store-mock-key`). */
  apiKeys?: string[]
  /** The origin whose `/v1/*` requests the MSW handlers answer, e.g. `http://localhost:4010` (default: any). */
  origin?: string
  /** Where unexpected failures are reported (default: console.error). */
  log?: (line: string) => void
}

export interface MockApi {
  /** MSW request handlers for `setupServer` (Node) or `setupWorker` (browser). */
  handlers: RequestHandler[]
  /** This mock's own pets; nothing is shared with any other mock. */
  store: PetStore
  /** Empties the store and seeds it again (same seed and count unless given). */
  reset(options?: SeedOptions): void
  /** The core itself: a plain request in, a plain response out. */
  handle(request: MockRequest): MockResponse
  apiKeys: string[]
}

/**
 * Creates an isolated, stateful Animal Store mock: its own seeded store, its own keys, its own handlers.
 * @example
 * const api = createMockApi({ seed: 1, pets: 10, apiKeys: ['secret'] })
 * const server = setupServer(...api.handlers); server.listen()
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  const state = createMockState(options)
  const apiKeys = options.apiKeys?.length ? [...options.apiKeys] : [defaultApiKey]
  const handle = createRequestHandler({
    contract,
    state,
    apiKeys,
    ...(options.log ? { log: options.log } : {}),
  })
  return {
    handlers: createMswHandlers(handle, options.origin ?? '*'),
    store: state.store,
    reset: (next) => state.reset(next),
    handle,
    apiKeys,
  }
}
