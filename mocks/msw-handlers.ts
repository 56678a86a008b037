// MSW handlers that pass /v1 and /__mock requests to the core and carry its latency and faults out in MSW.
import { delay, HttpResponse, http, type RequestHandler } from 'msw'
import { contract } from '../contract/index.ts'
import { hangLimitMs, truncatedBytes } from './core/conditions.ts'
import { controlPath } from './core/handle-request.ts'
import type { MockRequest, MockResponse } from './core/mock-http.ts'
import { basePathOf } from './core/route.ts'

/**
 * MSW handlers that hand every request under the API's base path (and the control path) to the core.
 * @note Patterns are `*\/v1/*`, not `/v1/*`: under `setupServer` a relative path never matches in Node.
 */
export function createMswHandlers(
  handle: (request: MockRequest) => MockResponse,
  origin = '*',
): RequestHandler[] {
  const answer = async ({ request }: { request: Request }) => {
    const response = handle(await fromFetch(request))
    // Latency and faults arrive decided by the core; MSW's own tools carry them out.
    if (response.delayMs) await delay(response.delayMs)
    if (response.fault === 'reset') return HttpResponse.error()
    if (response.fault === 'timeout') {
      await hang(request.signal)
      return HttpResponse.error()
    }
    // RFC 9110 §9.3.2: HEAD is GET without the body (the core only knows GET).
    return toMsw(request.method === 'HEAD' ? { ...response, body: undefined } : response)
  }
  return [
    http.all(`${origin}${basePathOf(contract)}/*`, answer),
    http.all(`${origin}${controlPath}/*`, answer),
  ]
}

async function fromFetch(request: Request): Promise<MockRequest> {
  const url = new URL(request.url)
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text()
  return {
    method: request.method === 'HEAD' ? 'GET' : request.method,
    path: url.pathname,
    query: url.search.slice(1),
    // Headers joins a repeated field with ", " (Fetch standard); serve-http.ts joins the same way.
    headers: Object.fromEntries(request.headers),
    ...(body === undefined ? {} : { body }),
  }
}

function toMsw(response: MockResponse): Response {
  const init = { status: response.status, headers: response.headers }
  if (response.fault !== 'truncate') return new HttpResponse(response.body ?? null, init)
  // Half the body, then the stream fails: the page's response.json() rejects as on a dropped connection.
  const cut = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(truncatedBytes(response.body))
      controller.error(new TypeError('The mock cut this response body short (fault: truncate).'))
    },
  })
  return new Response(cut, init)
}

/** Waits until the request is aborted (the client's own timeout) or hangLimitMs passes. */
function hang(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const limit = setTimeout(resolve, hangLimitMs)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(limit)
        resolve()
      },
      { once: true },
    )
  })
}
