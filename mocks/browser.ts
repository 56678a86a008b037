// The mock in the browser: `animal-store-contract-kit/mocks/browser`.
import { type SetupWorker, setupWorker } from 'msw/browser'
import type { SeedOptions } from './core/mock-state.ts'
import { createMockApi, type MockApi } from './create-mock-api.ts'
import { createMswHandlers } from './msw-handlers.ts'
import { persistPets } from './session-persistence.ts'
import { unhandledRequests } from './unhandled-requests.ts'

/** How long `startBrowserMock` waits for the worker to control the page unless told otherwise. */
export const defaultStartTimeoutMs = 5000

export interface BrowserMockOptions extends SeedOptions {
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
  /** How long to wait for the worker to control the page before rejecting with the reason (default 5000 ms). */
  timeoutMs?: number
  /**
   * `'session'` keeps the pets in sessionStorage across reloads of this tab (up to 2 MB; the journal and
   * settings are not kept). Default: none, a reload starts again from the seed.
   */
  persist?: 'session'
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
  const { serviceWorkerUrl = '/mockServiceWorker.js', timeoutMs = defaultStartTimeoutMs } = options
  assertSecureContext()
  const deadline = timeLimit(timeoutMs)
  try {
    await Promise.race([
      assertWorkerScriptServed(serviceWorkerUrl),
      deadline.expired('fetching the worker script'),
    ])
    assertScopeHoldsPage(serviceWorkerUrl)
    const origin = options.baseUrl ? new URL(options.baseUrl, globalThis.location?.href).origin : '*'
    const { baseUrl: _, quiet: __, serviceWorkerUrl: ___, timeoutMs: ____, persist, ...mockOptions } = options
    const api = createMockApi({ ...mockOptions, origin })
    let handlers = api.handlers
    if (persist === 'session') {
      const save = persistPets(api.state, globalThis.sessionStorage, (line) => console.warn(line))
      handlers = createMswHandlers((request) => {
        const response = api.handle(request)
        save()
        return response
      }, origin)
    }
    const worker = setupWorker(...handlers)
    const started = worker.start({
      quiet: options.quiet ?? false,
      ...unhandledRequests('bypass'),
      serviceWorker: { url: serviceWorkerUrl },
    })
    await Promise.race([started, deadline.expired('waiting for the worker to activate')]).catch(
      async (error: Error) => {
        worker.stop()
        throw await notActivated(
          serviceWorkerUrl,
          timeoutMs,
          error instanceof StartTimeout ? undefined : error,
        )
      },
    )
    return { worker, api, stop: () => worker.stop() }
  } finally {
    deadline.clear()
  }
}

class StartTimeout extends Error {}

function timeLimit(ms: number) {
  const timers: ReturnType<typeof setTimeout>[] = []
  return {
    expired: (what: string) =>
      new Promise<never>((_, reject) => {
        timers.push(setTimeout(() => reject(new StartTimeout(what)), ms))
      }),
    clear: () => {
      for (const timer of timers) clearTimeout(timer)
    },
  }
}

const failed = 'Failed to start the Animal Store browser mock:'

/** Service workers exist only in secure contexts: an http page on a LAN address or host name has none. */
function assertSecureContext(): void {
  if (globalThis.isSecureContext === false || !globalThis.navigator?.serviceWorker) {
    throw new Error(
      `${failed} service workers need a secure context, and ${globalThis.location?.origin ?? 'this page'} is not one. ` +
        'Open the page on http://localhost or http://127.0.0.1 (or over https), not by a LAN address or host name over http.',
    )
  }
}

/** A worker script in a subfolder can register, yet never control a page above that folder. */
function assertScopeHoldsPage(serviceWorkerUrl: string): void {
  const here = globalThis.location
  const script = new URL(serviceWorkerUrl, here.href)
  // The Service Workers spec: a worker controls only pages under its script's folder unless the server
  // widens the scope with a Service-Worker-Allowed header, which MSW's setup does not ask for.
  const scope = script.pathname.slice(0, script.pathname.lastIndexOf('/') + 1)
  if (script.origin !== here.origin || !here.pathname.startsWith(scope)) {
    throw new Error(
      `${failed} the worker script at ${script.href} can only control pages under ${script.origin}${scope}, and this page is ${here.origin}${here.pathname}. ` +
        'Serve mockServiceWorker.js from the site root (public/ in Vite, written by "npx animal-store-mock worker public") and pass serviceWorkerUrl: "/mockServiceWorker.js".',
    )
  }
}

async function notActivated(serviceWorkerUrl: string, timeoutMs: number, cause?: Error): Promise<Error> {
  const registration = await globalThis.navigator.serviceWorker
    .getRegistration(serviceWorkerUrl)
    .catch(() => undefined)
  const worker = registration?.installing ?? registration?.waiting ?? registration?.active
  const state = registration ? `registered, worker ${worker?.state ?? 'missing'}` : 'never registered'
  const what = cause
    ? `the service worker could not be registered or activated (${state}; MSW said: ${cause.message.replace(/\s+/g, ' ').trim()})`
    : `the service worker did not take control of the page within ${timeoutMs} ms (${state})`
  return new Error(
    `${failed} ${what}. ` +
      'A browser or test runner that blocks service workers (Playwright: serviceWorkers: "block"; some headless ' +
      'screenshot tools) causes this; allow them, or reload the page once. DevTools > Application > Service ' +
      'workers shows its state. Pass timeoutMs to wait longer.',
  )
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
