// The mock's door: a request without the bearer scheme and a known key gets the contract's 401 Error.
import { errorResponse } from './error-codes.ts'
import type { MockRequest, MockResponse } from './mock-http.ts'

// RFC 9110 §11.1: the auth scheme is case-insensitive; RFC 6750 §2.1: the token follows the scheme after spaces.
const bearer = /^bearer +(\S+) *$/i

/**
 * Checks `Authorization: Bearer <key>` against the configured keys.
 * @returns undefined when the key is good, else the 401 to send.
 */
export function authenticate(request: MockRequest, apiKeys: ReadonlySet<string>): MockResponse | undefined {
  const header = request.headers.authorization
  // RFC 6750 §3: a 401 for a bearer-protected resource says which scheme it wants.
  const challenge = { 'www-authenticate': 'Bearer realm="animal-store"' }
  // Only SP and HTAB are whitespace around a field value (RFC 9110 §5.5); String.trim() would also drop a
  // no-break space, accepting "Bearer <key>\u00a0", which is not the key.
  const value = header?.replace(/^[ \t]+|[ \t]+$/g, '')
  if (value === undefined || value === '') {
    return errorResponse(
      'unauthorized',
      'Missing API key: send the header "Authorization: Bearer <API key>".',
      challenge,
    )
  }
  // RFC 9110 §5.3: Authorization is not a list, so a comma means the request carried it more than once
  // (adapters join repeated fields with ", ", as fetch's Headers does). Which one to believe is
  // ambiguous, so none is: every adapter refuses it the same way. A bearer token holds no comma (RFC 6750 §2.1).
  if (value.includes(',')) {
    return errorResponse(
      'unauthorized',
      'More than one Authorization header (or a comma-separated list): send exactly one, "Authorization: Bearer <API key>".',
      { 'www-authenticate': 'Bearer realm="animal-store", error="invalid_request"' },
    )
  }
  const match = bearer.exec(value)
  if (!match) {
    return errorResponse(
      'unauthorized',
      'Malformed Authorization header: use the Bearer scheme, "Authorization: Bearer <API key>".',
      { 'www-authenticate': 'Bearer realm="animal-store", error="invalid_request"' },
    )
  }
  if (!apiKeys.has(match[1] ?? '')) {
    return errorResponse('unauthorized', 'Invalid API key: the key sent is not one this server accepts.', {
      'www-authenticate': 'Bearer realm="animal-store", error="invalid_token"',
    })
  }
  return undefined
}
