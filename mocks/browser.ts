// The mock in the browser: `animal-store-contract-kit/mocks/browser`.
import { type SetupWorker, setupWorker } from 'msw/browser'
import type { ConditionOptions } from './core/conditions.ts'
import type { SeedOptions } from './core/mock-state.ts'
import { createMockApi, type MockApi } from './create-mock-api.ts'

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
 * the worker controls the page. Requests to anything else pass through untouched.
 * @example await startBrowserMock({ seed: 1, baseUrl: '/v1' })
 */
export async function startBrowserMock(options: BrowserMockOptions = {}): Promise<BrowserMock> {
  const origin = options.baseUrl ? new URL(options.baseUrl, globalThis.location?.href).origin : '*'
  const api = createMockApi({ ...options, origin })
  const worker = setupWorker(...api.handlers)
  await worker.start({
    quiet: options.quiet ?? false,
    onUnhandledRequest: 'bypass',
    serviceWorker: { url: options.serviceWorkerUrl ?? '/mockServiceWorker.js' },
  })
  return { worker, api, stop: () => worker.stop() }
}
