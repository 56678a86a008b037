// The mock in the browser: `animal-store-contract-kit/mocks/browser`.
import { type SetupWorker, setupWorker } from 'msw/browser'
import type { ConditionOptions } from './core/conditions.ts'
import type { SeedOptions } from './core/mock-state.ts'
import { createMockApi, type MockApi } from './create-mock-api.ts'
import { unhandledRequests } from './unhandled-requests.ts'

export interface BrowserMockOptions extends SeedOptions, ConditionOptions {
  /** Keys accepted as `Authorization: Bearer <key>` (default: `animal-store-mock-key`). */
  apiKeys?: string[]
  /**
   * Where the app sends API requests, e.g. `https://api.example.test/v1` or `/v1`: only that origin's
   * `/v1/*` requests are answered. Default: any origin.
   */
  baseUrl?: string
  /** Do not log "[MSW] Mocking enabled" and each intercepted request to the console. */
  quiet?: boolean
  /** Where the worker script is served (default `/mockServiceWorker.js`; write it with `animal-store-mock worker <dir>`). */
  serviceWorkerUrl?: string
}

export interface BrowserMock {
  worker: SetupWorker
  api: MockApi
  stop(): void
}

/**
 * Starts MSW's service worker answering the Animal Store API from a stateful mock, and resolves once
 * the worker controls the page. Requests to anything else pass through untouched and unlogged, under
 * msw 2 and msw 3 alike.
 * @throws when the worker script is not served at `serviceWorkerUrl`, naming the command that writes it.
 * @example await startBrowserMock({ seed: 1, baseUrl: '/v1' })
 */
export async function startBrowserMock(options: BrowserMockOptions = {}): Promise<BrowserMock> {
  const serviceWorkerUrl = options.serviceWorkerUrl ?? '/mockServiceWorker.js'
  await assertWorkerScriptServed(serviceWorkerUrl)
  const origin = options.baseUrl ? new URL(options.baseUrl, globalThis.location?.href).origin : '*'
  const api = createMockApi({ ...options, origin })
  const worker = setupWorker(...api.handlers)
  await worker.start({
    quiet: options.quiet ?? false,
    ...unhandledRequests('bypass'),
    serviceWorker: { url: serviceWorkerUrl },
  })
  return { worker, api, stop: () => worker.stop() }
}

/**
 * Registering a worker whose script is missing fails with only "unsupported MIME type ('text/html')" (a dev
 * server answers an unknown path with its index.html) and leaves a blank page; one request first turns that
 * into an error that says what to run.
 */
async function assertWorkerScriptServed(url: string): Promise<void> {
  const response = await fetch(url, { cache: 'no-store' }).catch((error: Error) => error)
  const answer =
    response instanceof Error
      ? `the request failed (${response.message})`
      : `the server answered ${response.status} ${response.headers.get('content-type') ?? 'without a Content-Type'}`
  if (response instanceof Response) {
    await response.body?.cancel()
    if (response.ok && /javascript/i.test(response.headers.get('content-type') ?? '')) return
  }
  throw new Error(
    `Failed to start the Animal Store browser mock: MSW's worker script is not served at ${url} (${answer}). ` +
      'Write it into the folder your dev server serves at the site root (public/ in Vite) with ' +
      '"npx animal-store-mock worker public", then reload. Run it again after upgrading msw.',
  )
}
