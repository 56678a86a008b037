// The mock in Playwright tests: `animal-store-contract-kit/playwright`. Each test gets its own store,
// answered through @msw/playwright (page.route under the hood: no worker script, no service worker).
import { dirname, join } from 'node:path'
import type { NetworkFixture } from '@msw/playwright'
import { test as base, expect } from '@playwright/test'
import { HttpResponse, http } from 'msw'
import { contract } from '../contract/index.ts'
import type { operations } from '../contract/types.ts'
import type { JournalEntry } from './core/request-journal.ts'
import type { ResetOptions } from './core/reset-options.ts'
import { basePathOf } from './core/route.ts'
import { createMockApi, type MockApi, type MockApiOptions } from './create-mock-api.ts'
import { writePact } from './pact-file.ts'
import { unseenRequestsWarning } from './unseen-requests.ts'

export { type ChromiumToLaunch, findChromium } from './find-chromium.ts'
export { type HttpMockSessionFixtures, httpMockTest } from './playwright-http.ts'
export { mockRunId, mockSessionName } from './session-names.ts'

// Warned on the console once per worker; every such test also carries a `warning` annotation.
let warnedOfUnseenRequests = false

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

/** `test.use({ record: { consumer: 'web-app' } })`: every test's traffic into one Pact file (docs/pact.md). */
export interface PlaywrightRecording {
  /** The consumer the Pact file names. */
  consumer: string
  /** Where `<consumer>-animal-store.json` is written (default `pacts`, beside the config). */
  dir?: string
}

export interface AnimalStoreFixtures {
  /** The options every test's mock starts from (`test.use({ mockOptions: { pets: 3 } })`). */
  mockOptions: MockApiOptions
  /** Record what each test's page really did; written into the one file as each test ends. */
  record: PlaywrightRecording | undefined
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
  record: [undefined, { option: true }],
  animalStore: [
    async ({ context, mockOptions, record }, use, testInfo) => {
      // Interactions are named after the test: its describe blocks and title, not its file.
      const testName = testInfo.titlePath.slice(1).join(' > ')
      const api = createMockApi(
        record
          ? { ...mockOptions, record: { consumer: record.consumer, testName: () => testName } }
          : mockOptions,
      )
      // Loaded here, not at the top: httpMockTest, exported beside this, must load without it.
      const { defineNetworkFixture } = await import('@msw/playwright')
      const network = defineNetworkFixture({
        context,
        handlers: api.handlers,
        onUnhandledRequest: 'bypass',
      })
      await network.enable()
      // Every API request the browser sends, answered by the mock, an override or any handler of
      // network.use: a path test per request, nothing more.
      const apiPrefix = `${basePathOf(contract)}/`
      let apiRequests = 0
      const count = (request: { url(): string }) => {
        if (new URL(request.url()).pathname.startsWith(apiPrefix)) apiRequests++
      }
      context.on('request', count)
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
      context.off('request', count)
      await network.disable()
      // Each test merges its interactions into the file under a lock: workers write it in turn.
      if (record) {
        const { configFile } = testInfo.config
        await writePact(
          api,
          record.dir ?? join(configFile ? dirname(configFile) : testInfo.config.rootDir, 'pacts'),
        )
      }
      const warning = unseenRequestsWarning(apiRequests)
      if (warning !== undefined) {
        testInfo.annotations.push({ type: 'warning', description: warning })
        if (!warnedOfUnseenRequests) console.warn(`Warning: ${warning}`)
        warnedOfUnseenRequests = true
      }
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
