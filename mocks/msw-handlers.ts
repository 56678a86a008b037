import { HttpResponse, http, type RequestHandler } from 'msw'
import { contract } from '../contract/index.ts'
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

function toMsw(response: MockResponse): HttpResponse<string> {
  return new HttpResponse(response.body ?? null, { status: response.status, headers: response.headers })
}
