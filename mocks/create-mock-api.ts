// createMockApi: one isolated mock (state, keys, core handler, MSW handlers), the unit every runtime wraps.
import type { RequestHandler } from 'msw'
import { contract } from '../contract/index.ts'
import { defaultApiKey } from './core/api-keys.ts'
import type { ConditionOptions } from './core/conditions.ts'
import { createRequestHandler, operationIdsOf } from './core/handle-request.ts'
import type { MemoryBudget } from './core/memory-budget.ts'
import type { MockRequest, MockResponse } from './core/mock-http.ts'
import { createMockState, type MockState, type SeedOptions } from './core/mock-state.ts'
import { PactRecorder, type RecordOptions } from './core/pact-recorder.ts'
import type { PetStore } from './core/pet-store.ts'
import type { JournalEntry } from './core/request-journal.ts'
import { readResetOptions } from './core/reset-options.ts'
import { basePathOf } from './core/route.ts'
import { createMswHandlers } from './msw-handlers.ts'

export interface MockApiOptions extends SeedOptions, ConditionOptions {
  /** Keys accepted as `Authorization: Bearer <key>` (default: `animal-store-mock-key`). */
  apiKeys?: string[]
  /** The origin whose `/v1/*` requests the MSW handlers answer, e.g. `http://localhost:4010` (default: any). */
  origin?: string
  /** Where unexpected failures are reported (default: console.error). */
  log?: (line: string) => void
  /** Byte budgets of the store and its page cache; the defaults suit a laptop (README, "Memory budget"). */
  budget?: Partial<MemoryBudget>
  /** Origins whose pages may read `/v1` answers (CORS); default: any origin. */
  corsOrigins?: string[]
  /** How many requests `requests` keeps (default 1000; 0 turns the journal off). */
  journalSize?: number
  /**
   * Answer every `/v1` request without an `X-Mock-Session` header with 400 `session_required`, as the
   * HTTP mock's `--require-session` does (default false).
   */
  requireSession?: boolean
  /**
   * Record what the consumer's tests really do as a Pact file (docs/pact.md): `{ consumer: 'web-app' }`,
   * with `testName: () => expect.getState().currentTestName` under vitest to name interactions after tests.
   */
  record?: RecordOptions
}

export interface MockApi {
  /** MSW request handlers for `setupServer` (Node) or `setupWorker` (browser). */
  handlers: RequestHandler[]
  /** This mock's own pets; nothing is shared with any other mock. */
  store: PetStore
  /**
   * The last requests under `/v1`, oldest first (the journal, as `GET /__mock/requests` serves it):
   * method, path, query, status, latency, fault and whether the key was accepted. Never a header.
   */
  readonly requests: JournalEntry[]
  /**
   * Empties the store, seeds it again and clears the journal: back to the options the mock was created
   * with, each option given here replacing that one for this reset (`POST /__mock/reset` takes the same
   * keys). A scenario other than the configured one brings its own count of pets unless `pets` is given.
   * @throws on an unknown key or a wrong value, naming the allowed keys, and when the seeded pets do not
   * fit in the store's budget (the old pets are kept either way).
   */
  reset(options?: SeedOptions): void
  /** The core itself: a plain request in, a plain response out. */
  handle(request: MockRequest): MockResponse
  /** The store with its seed, for adapters that reset in steps (mocks/http/reset-in-steps.ts). */
  state: MockState
  apiKeys: string[]
  /** The Pact recording, with `record` in the options: `recorder.pact()`, or `writePact` in Node. */
  recorder?: PactRecorder
}

/**
 * Creates an isolated, stateful Animal Store mock: its own seeded store, its own keys, its own handlers.
 * @example
 * const api = createMockApi({ seed: 1, pets: 10, apiKeys: ['secret'] })
 * const server = setupServer(...api.handlers); server.listen()
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  const operationIds = operationIdsOf(contract)
  const state = createMockState(options)
  const apiKeys = options.apiKeys?.length ? [...options.apiKeys] : [defaultApiKey]
  const recorder = options.record
    ? new PactRecorder(contract, basePathOf(contract), options.record)
    : undefined
  const handle = createRequestHandler({
    contract,
    state,
    apiKeys,
    ...(options.log ? { log: options.log } : {}),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.requireSession ? { requireSession: true } : {}),
    ...(recorder ? { recorder } : {}),
  })
  return {
    ...(recorder ? { recorder } : {}),
    handlers: createMswHandlers(handle, options.origin ?? '*'),
    store: state.store,
    get requests() {
      return state.journal.list()
    },
    reset: (next = {}) => {
      const read = readResetOptions(next, operationIds)
      if (!read.ok) throw new Error(`Failed to reset the mock: ${read.message}`)
      const outcome = state.reset(read.options)
      if (!outcome.ok) throw new Error(`Failed to reset the mock: ${outcome.reason}`)
    },
    handle,
    state,
    apiKeys,
  }
}
