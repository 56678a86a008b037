// The mock in Playwright tests: `animal-store-contract-kit/playwright`. Each test gets its own store,
// answered through @msw/playwright (page.route under the hood: no worker script, no service worker).
import { defineNetworkFixture, type NetworkFixture } from '@msw/playwright'
import { test as base, expect } from '@playwright/test'
import { HttpResponse, http } from 'msw'
import { contract } from '../contract/index.ts'
import type { operations } from '../contract/types.ts'
import type { JournalEntry } from './core/request-journal.ts'
import type { ResetOptions } from './core/reset-options.ts'
import { basePathOf } from './core/route.ts'
import { createMockApi, type MockApi, type MockApiOptions } from './create-mock-api.ts'

type OperationId = keyof operations
type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never
/** The statuses the contract lists for an operation. */
type StatusOf<Id extends OperationId> = keyof operations[Id]['responses'] & number
/** The JSON body the contract gives an operation's answer with that status. */
type BodyOf<Id extends OperationId, Status extends StatusOf<Id>> = JsonOf<operations[Id]['responses'][Status]>

/** What an override receives: the request, and its path parameters by name. */
export interface OverrideRequest {
  request: Request
  params: Record<string, string | readonly string[] | undefined>
}

export interface AnimalStoreFixture {
  /** This test's mock: its store, handlers and keys. */
  api: MockApi
  /** The same reset as `POST /__mock/reset` (docs/mock.md): back to `mockOptions`, each key given replacing one. */
  reset(options?: ResetOptions): void
  /** This test's requests under `/v1`, oldest first. */
  readonly requests: JournalEntry[]
  /**
   * Answers one operation with a status the contract lists for it and a body of that status's type (or
   * a function of the request giving one), until the test ends (or `network.resetHandlers()`).
   * @example animalStore.override('getPet', 404, () => ({ code: 'not_found', message: 'gone', status: 404 }))
   */
  override<Id extends OperationId, Status extends StatusOf<Id>>(
    operationId: Id,
    status: Status,
    body:
      | NoInfer<BodyOf<Id, Status>>
      | ((request: OverrideRequest) => NoInfer<BodyOf<Id, Status>> | Promise<NoInfer<BodyOf<Id, Status>>>),
  ): void
  /** @msw/playwright's fixture: `network.use(...handlers)` for anything else. */
  network: NetworkFixture
}

export interface AnimalStoreFixtures {
  /** The options every test's mock starts from (`test.use({ mockOptions: { pets: 3 } })`). */
  mockOptions: MockApiOptions
  animalStore: AnimalStoreFixture
}

/**
 * Playwright's `test` with an `animalStore` fixture: a fresh mock per test, answering the page's
 * requests to `/v1/*` on any origin.
 * @example
 * import { test, expect } from 'animal-store-contract-kit/playwright'
 * test.use({ mockOptions: { pets: 3 } })
 * test('lists pets', async ({ page, animalStore }) => { animalStore.reset({ scenario: 'empty' }) })
 */
export const test = base.extend<AnimalStoreFixtures>({
  mockOptions: [{}, { option: true }],
  animalStore: [
    async ({ context, mockOptions }, use) => {
      const api = createMockApi(mockOptions)
      const network = defineNetworkFixture({
        context,
        handlers: api.handlers,
        onUnhandledRequest: 'bypass',
      })
      await network.enable()
      await use({
        api,
        network,
        reset: (options) => api.reset(options),
        get requests() {
          return api.requests
        },
        override(operationId, status, body) {
          network.use(overrideHandler(mockOptions.origin ?? '*', operationId, status, body))
        },
      })
      await network.disable()
    },
    { auto: true },
  ],
})

export { expect }

function overrideHandler(origin: string, operationId: string, status: number, body: unknown) {
  const operation = contract.operations.find((candidate) => candidate.operationId === operationId)
  if (!operation)
    throw new Error(
      `Unknown operation "${operationId}": use ${contract.operations.map((each) => each.operationId).join(', ')}.`,
    )
  // OpenAPI's {petId} is MSW's :petId.
  const path = `${origin}${basePathOf(contract)}${operation.path.replace(/\{([^}]+)\}/g, ':$1')}`
  const method = operation.method.toLowerCase() as 'get' | 'post'
  return http[method](path, async ({ request, params }) => {
    const answer = typeof body === 'function' ? await body({ request, params }) : body
    return HttpResponse.json(answer as never, { status })
  })
}

export interface HttpMockSessionFixtures {
  /** The `X-Mock-Session` name every request of this test carries: one per Playwright worker. */
  mockSession: string
  /**
   * Resets this worker's session of the HTTP mock at `origin` (e.g. `http://127.0.0.1:4010`), with the
   * keys of `POST /__mock/reset`.
   */
  resetMockSession(origin: string, options?: ResetOptions): Promise<void>
}

/**
 * Playwright's `test` for pages that talk to the HTTP mock (`animal-store-mock`) rather than to a mock in
 * the test: every request the page sends carries `X-Mock-Session: worker-<index>`, so parallel workers
 * share one mock process without seeing each other's pets.
 * @example
 * import { httpMockTest as test } from 'animal-store-contract-kit/playwright'
 * test.beforeEach(async ({ resetMockSession }) => resetMockSession('http://127.0.0.1:4010'))
 */
export const httpMockTest = base.extend<HttpMockSessionFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern, and this one has none.
  mockSession: async ({}, use, testInfo) => {
    await use(`worker-${testInfo.parallelIndex}`)
  },
  extraHTTPHeaders: async ({ extraHTTPHeaders, mockSession }, use) => {
    await use({ ...extraHTTPHeaders, 'X-Mock-Session': mockSession })
  },
  resetMockSession: async ({ request, mockSession }, use) => {
    await use(async (origin, options = {}) => {
      const response = await request.post(`${origin}/__mock/reset`, {
        headers: { 'content-type': 'application/json', 'x-mock-session': mockSession },
        data: options,
      })
      if (!response.ok())
        throw new Error(
          `Failed to reset mock session ${mockSession}: ${response.status()} ${await response.text()}`,
        )
    })
  },
})
