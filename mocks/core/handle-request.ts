import type { Contract, Operation } from '../../contract/index.ts'
import { authenticate } from './authenticate.ts'
import { errorResponse } from './error-codes.ts'
import { jsonResponse, type MockRequest, type MockResponse } from './mock-http.ts'
import { type MockState, maxSeededPets, type SeedOptions } from './mock-state.ts'
import { petActions } from './pet-actions.ts'
import { forcedResponse } from './prefer-code.ts'
import { basePathOf, createRouter } from './route.ts'
import { validateRequest } from './validate-request.ts'

/** Bodies above this many bytes get 413 `payload_too_large`. */
export const maxBodyBytes = 1024 * 1024

/** Where the test-control endpoints live: outside the API's `/v1`, and not behind its API key. */
export const controlPath = '/__mock'

// RFC 9745 asks for the date the operation was deprecated; the contract states none, so the mock uses the
// start of 2026 (documented in the README). The Sunset date is the contract's own `x-sunset`.
const deprecatedSince = Date.UTC(2026, 0, 1) / 1000

const cors = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'Location, Deprecation, Sunset, Preference-Applied, WWW-Authenticate, Allow',
}

export interface HandlerOptions {
  contract: Contract
  state: MockState
  apiKeys: Iterable<string>
  /** Where unexpected failures are reported (a 500 is sent either way). */
  log?: (line: string) => void
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
  const deprecationHeaders = new Map(
    contract.operations
      .filter((operation) => operation.deprecated)
      .map((operation) => [operation, deprecationOf(operation)]),
  )

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
    if (byteLength(request.body) > maxBodyBytes) {
      return errorResponse(
        'payload_too_large',
        `The body is larger than ${maxBodyBytes} bytes (1 MiB); send a smaller one.`,
      )
    }
    const action = operation.operationId === undefined ? undefined : petActions[operation.operationId]
    if (!action) {
      return errorResponse(
        'not_implemented',
        `${operation.method} ${operation.path} exists in the contract, but the contract does not define its parameters or responses, so the mock cannot answer it.`,
      )
    }
    const validated = validateRequest(contract, operation, request, pathParams)
    if (!validated.ok) return validated.response
    return action({ store: state.store, input: validated.input, basePath })
  }

  const handleControl = (request: MockRequest): MockResponse => {
    const action = `${request.method.toUpperCase()} ${request.path}`
    if (action === `GET ${controlPath}/health`) {
      return jsonResponse(200, {
        status: 'ok',
        pets: state.store.size,
        seed: state.seed,
        contractVersion: contract.document.info.version,
      })
    }
    if (action === `POST ${controlPath}/reset`) {
      const options = parseSeedOptions(request.body)
      if (typeof options === 'string') return errorResponse('invalid_body', options)
      state.reset(options)
      return jsonResponse(200, { status: 'reset', pets: state.store.size, seed: state.seed })
    }
    return errorResponse(
      'not_found',
      `No such control endpoint: ${action}. Use GET ${controlPath}/health or POST ${controlPath}/reset.`,
    )
  }

  return (request) => {
    try {
      if (request.method.toUpperCase() === 'OPTIONS') return preflight()
      const path = request.path
      let response: MockResponse
      if (path === controlPath || path.startsWith(`${controlPath}/`)) response = handleControl(request)
      else if (path.startsWith(`${basePath}/`)) response = handleApi(request)
      else
        response = errorResponse(
          'not_found',
          `No such path: ${path}. The API lives under ${basePath}/, e.g. ${basePath}/pets.`,
        )
      // CORS matters only to browsers, which always send Origin on the requests it governs.
      return request.headers.origin === undefined ? response : withHeaders(response, cors)
    } catch (error) {
      log(
        `animal-store mock: unexpected failure on ${request.method} ${request.path}: ${(error as Error).stack ?? String(error)}`,
      )
      return withHeaders(
        errorResponse(
          'internal_error',
          'The mock failed unexpectedly; this is a bug in the mock, please report it.',
        ),
        cors,
      )
    }
  }
}

function preflight(): MockResponse {
  return {
    status: 204,
    headers: {
      ...cors,
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type, Prefer',
      'access-control-max-age': '600',
    },
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

function byteLength(text: string | undefined): number {
  if (text === undefined) return 0
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most bodies are decided without encoding them.
  if (text.length * 3 <= maxBodyBytes) return text.length
  return new TextEncoder().encode(text).length
}

function parseSeedOptions(body: string | undefined): SeedOptions | string {
  if (body === undefined || body.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch (error) {
    return `Malformed JSON body: ${(error as Error).message}. Send {"seed": 1, "pets": 50} or nothing.`
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'The reset body must be a JSON object such as {"seed": 1, "pets": 50}.'
  const { seed, pets } = value as Record<string, unknown>
  if (seed !== undefined && !Number.isSafeInteger(seed)) return '/seed must be an integer.'
  if (
    pets !== undefined &&
    (!Number.isSafeInteger(pets) || (pets as number) < 0 || (pets as number) > maxSeededPets)
  ) {
    return `/pets must be an integer from 0 to ${maxSeededPets}.`
  }
  return {
    ...(seed === undefined ? {} : { seed: seed as number }),
    ...(pets === undefined ? {} : { pets: pets as number }),
  }
}
