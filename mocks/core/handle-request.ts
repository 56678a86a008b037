import type { Contract, Operation } from '../../contract/index.ts'
import { authenticate } from './authenticate.ts'
import {
  controlPath,
  exceedsBodyLimit,
  handleControl,
  isControlPath,
  maxBodyBytes,
  payloadTooLarge,
} from './control-endpoints.ts'
import { corsHeaders, preflight } from './cors.ts'
import { errorResponse } from './error-codes.ts'
import type { MockRequest, MockResponse } from './mock-http.ts'
import type { MockState } from './mock-state.ts'
import { normalizePath } from './normalize-path.ts'
import { petActions } from './pet-actions.ts'
import { forcedResponse } from './prefer-code.ts'
import { ResponseCache } from './response-cache.ts'
import { basePathOf, createRouter } from './route.ts'
import { validateRequest } from './validate-request.ts'

export { controlPath, maxBodyBytes }

// RFC 9745 asks for the date the operation was deprecated; the contract states none, so the mock uses the
// start of 2026 (documented in the README). The Sunset date is the contract's own `x-sunset`.
const deprecatedSince = Date.UTC(2026, 0, 1) / 1000

export interface HandlerOptions {
  contract: Contract
  state: MockState
  apiKeys: Iterable<string>
  /** Where unexpected failures are reported (a 500 is sent either way). */
  log?: (line: string) => void
  /** Origins whose pages may read `/v1` answers (CORS); default: any origin. */
  corsOrigins?: readonly string[]
}

/**
 * The mock's behaviour as one transport-neutral function: authenticate → route → force (Prefer) →
 * validate against the contract → act on the store → respond. Every error is the contract's Error body.
 * @example createRequestHandler({ contract, state, apiKeys: ['k'] })({ method: 'GET', path: '/v1/pets', query: '', headers: { authorization: 'Bearer k' } })
 */
export function createRequestHandler(options: HandlerOptions): (request: MockRequest) => MockResponse {
  const { contract, state } = options
  const apiKeys = new Set(options.apiKeys)
  const basePath = basePathOf(contract)
  const route = createRouter(contract)
  const log = options.log ?? ((line: string) => console.error(line))
  const cors = corsHeaders(options.corsOrigins ?? [])
  const contractVersion = contract.document.info.version
  const deprecationHeaders = new Map(
    contract.operations
      .filter((operation) => operation.deprecated)
      .map((operation) => [operation, deprecationOf(operation)]),
  )

  const answers = new ResponseCache()

  const handleApi = (request: MockRequest): MockResponse => {
    const relative = request.path.slice(basePath.length)
    const match = route(request.method, relative)
    const denied = authenticate(request, apiKeys)
    if (denied)
      return match.kind === 'operation'
        ? withHeaders(denied, deprecationHeaders.get(match.operation))
        : denied
    if (match.kind === 'not_found') {
      return errorResponse(
        'not_found',
        `No such path: ${request.path}. The API has ${listPaths(contract, basePath)}.`,
      )
    }
    if (match.kind === 'method_not_allowed') {
      return errorResponse(
        'method_not_allowed',
        `${request.method} is not allowed on ${request.path}; use ${match.allow.join(', ')}.`,
        {
          allow: match.allow.join(', '),
        },
      )
    }
    const { operation, pathParams } = match
    return withHeaders(serveOperation(operation, pathParams, request), deprecationHeaders.get(operation))
  }

  const serveOperation = (operation: Operation, pathParams: Record<string, string>, request: MockRequest) => {
    const forced = forcedResponse(request, operation)
    if (forced) return forced
    if (exceedsBodyLimit(request.body)) return payloadTooLarge()
    const action = operation.operationId === undefined ? undefined : petActions[operation.operationId]
    // GET /store/orders: the contract names it and defines no parameters, status or body. 204 is a success
    // that invents no payload; a 501 would be a warning in every conformance run against the mock.
    if (!action) return noContent
    const validated = validateRequest(contract, operation, request, pathParams)
    if (!validated.ok) return validated.response
    return action({ store: state.store, input: validated.input, basePath })
  }

  const noContent: MockResponse = { status: 204, headers: {} }

  return (received) => {
    const origin = received.headers.origin
    // Every spelling RFC 3986 makes the same URI is the same resource, auth included.
    const normalized = normalizePath(received.path)
    const request = normalized === received.path ? received : { ...received, path: normalized }
    try {
      const path = request.path
      // The control endpoints grant no CORS at all, preflight included: no page on another origin may
      // reset the store or read it (README, "Threat model").
      if (isControlPath(path)) return handleControl(request, state, contractVersion)
      const key = answers.keyOf(request)
      const version = state.store.version
      const cached = key === undefined ? undefined : answers.get(version, key)
      if (cached) return cached
      if (request.method.toUpperCase() === 'OPTIONS') return preflight(cors(origin))
      const answer = path.startsWith(`${basePath}/`)
        ? handleApi(request)
        : errorResponse(
            'not_found',
            `No such path: ${path}. The API lives under ${basePath}/, e.g. ${basePath}/pets.`,
          )
      // CORS matters only to browsers, which always send Origin on the requests it governs.
      const response = origin === undefined ? answer : withHeaders(answer, cors(origin))
      if (key !== undefined) answers.set(version, key, response)
      return response
    } catch (error) {
      log(
        `animal-store mock: unexpected failure on ${request.method} ${request.path}: ${(error as Error).stack ?? String(error)}`,
      )
      return withHeaders(
        errorResponse(
          'internal_error',
          'The mock failed unexpectedly; this is a bug in the mock, please report it.',
        ),
        origin === undefined || isControlPath(request.path) ? undefined : cors(origin),
      )
    }
  }
}

function deprecationOf(operation: Operation): Record<string, string> {
  const headers: Record<string, string> = { deprecation: `@${deprecatedSince}` }
  const sunset = operation.extensions['x-sunset']
  if (typeof sunset === 'string') headers.sunset = new Date(`${sunset}T00:00:00Z`).toUTCString()
  return headers
}

function withHeaders(response: MockResponse, headers: Record<string, string> | undefined): MockResponse {
  return headers ? { ...response, headers: { ...response.headers, ...headers } } : response
}

function listPaths(contract: Contract, basePath: string): string {
  return contract.operations.map((operation) => `${operation.method} ${basePath}${operation.path}`).join(', ')
}
