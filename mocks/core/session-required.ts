// The answer `--require-session` gives an API request that names no X-Mock-Session: a 400 saying what to add.
import { errorResponse } from './error-codes.ts'
import type { MockRequest, MockResponse } from './mock-http.ts'

/**
 * The 400 an API request gets when the mock requires a session and the request names none. A forgotten
 * forward (an SSR server not passing the header on) would otherwise land in the default session, shared
 * by every worker, and tests would pass or fail by luck. `X-Mock-Session: default` is a choice, not a
 * forgotten header, so it passes.
 */
export function sessionRequired(request: MockRequest, basePath: string): MockResponse | undefined {
  if (request.headers['x-mock-session'] !== undefined) return undefined
  return errorResponse(
    'session_required',
    `This mock requires a session: add the header "X-Mock-Session: <name>" to every ${basePath} request (e.g. X-Mock-Session: worker-0; httpMockTest sends one per worker). A server that renders pages must forward the header it received. Started without --require-session (or requireSession), the mock would use the default session instead.`,
  )
}
