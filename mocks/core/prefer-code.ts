// `Prefer: code=NNN`, as Prism reads it: forces an operation's declared error; the store is untouched.
import type { Operation } from '../../contract/index.ts'
import type { ApiError } from '../../contract/types.ts'
import { type ErrorCode, errorResponse } from './error-codes.ts'
import { jsonResponse, type MockRequest, type MockResponse } from './mock-http.ts'

// The code a forced error carries, by status; any other status the contract may declare gets `forced_<status>`.
const codeByStatus: Record<string, ErrorCode | undefined> = {
  '400': 'invalid_body',
  '401': 'unauthorized',
  '404': 'not_found',
}

/**
 * Prism-style scenario forcing (`Prefer: code=404`, RFC 7240 syntax): returns the operation's declared
 * error for that status, in the contract's Error shape, without touching the store. A declared success
 * status needs no forcing and is served normally; a status the operation does not declare gets a 400
 * naming the ones it does.
 * @returns undefined when the request does not force an error.
 */
export function forcedResponse(request: MockRequest, operation: Operation): MockResponse | undefined {
  const prefer = request.headers.prefer
  if (prefer === undefined) return undefined
  const requested = /(?:^|[,;\s])code\s*=\s*"?([^",;\s]*)"?/i.exec(prefer)?.[1]
  if (requested === undefined) return undefined
  const declared = operation.responses.map((response) => response.status)
  if (!/^[1-5]\d\d$/.test(requested) || !declared.includes(requested)) {
    const choice = declared.length > 0 ? `declares ${declared.join(', ')}` : 'declares no responses'
    return errorResponse(
      'invalid_prefer',
      `Prefer: code=${requested} cannot be served: ${operation.id} ${choice}. Send one of those, or no Prefer header.`,
    )
  }
  if (requested.startsWith('2')) return undefined
  const response = operation.responses.find((candidate) => candidate.status === requested)
  const body: ApiError = {
    code: codeByStatus[requested] ?? `forced_${requested}`,
    message: `Forced by "Prefer: code=${requested}": ${response?.description ?? ''}`.trim(),
    status: Number(requested),
  }
  return jsonResponse(body.status, body, { 'preference-applied': `code=${requested}` })
}
