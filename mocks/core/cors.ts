// X-Mock-Fault and Retry-After let a page see that an answer was an injected fault, and when to retry.
const exposed =
  'Location, Deprecation, Sunset, Preference-Applied, WWW-Authenticate, Allow, Retry-After, X-Mock-Fault'
const anyOrigin = { 'access-control-allow-origin': '*', 'access-control-expose-headers': exposed }
// The answer varies with Origin when only some origins are allowed (Fetch standard, "CORS protocol and HTTP caches").
const refused = { vary: 'Origin' }

/**
 * The CORS headers for an answer under `/v1` to a page on `origin`. With no allowlist every origin may
 * read the API (it needs a bearer key, which pages cannot take from the user's browser); with one, only
 * those origins get `Access-Control-Allow-Origin`, others get nothing and the browser hides the answer.
 * @example corsHeaders(['http://localhost:5173'])('http://localhost:5173')['access-control-allow-origin'] // 'http://localhost:5173'
 */
export function corsHeaders(
  allowed: readonly string[],
): (origin: string | undefined) => Record<string, string> {
  if (allowed.length === 0 || allowed.includes('*')) return () => anyOrigin
  const granted = new Map(
    allowed.map((origin) => [
      origin,
      { 'access-control-allow-origin': origin, 'access-control-expose-headers': exposed, vary: 'Origin' },
    ]),
  )
  return (origin) => (origin === undefined ? refused : (granted.get(origin) ?? refused))
}

/** The answer to a CORS preflight under `/v1`: the methods and headers a page may use. */
export function preflightAnswer(cors: Record<string, string>) {
  return {
    status: 204,
    headers: {
      ...cors,
      'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type, Prefer, X-Mock-Session',
      'access-control-max-age': '600',
    },
  }
}
