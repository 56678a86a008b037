// The mock's request handler: the named stages every adapter runs, from auth and routing to the store.
import type { Contract, Operation } from '../../contract/index.ts'
import { authenticate } from './authenticate.ts'
import { type Decision, decideConditions, faultAnswer, faultHeader } from './conditions.ts'
import {
  controlPath,
  exceedsBodyLimit,
  handleControl,
  isControlPath,
  maxBodyBytes,
  payloadTooLarge,
} from './control-endpoints.ts'
import { corsHeaders, preflightAnswer } from './cors.ts'
import { replacementOf } from './deprecated-use.ts'
import { errorResponse } from './error-codes.ts'
import type { MockRequest, MockResponse } from './mock-http.ts'
import type { MockState } from './mock-state.ts'
import { normalizePath } from './normalize-path.ts'
import type { PactRecorder } from './pact-recorder.ts'
import { petActions } from './pet-actions.ts'
import { forcedResponse } from './prefer-code.ts'
import { ResponseCache } from './response-cache.ts'
import { basePathOf, createRouter } from './route.ts'
import { sessionRequired } from './session-required.ts'
import { validateRequest } from './validate-request.ts'

export { controlPath, maxBodyBytes }

/**
 * Begins the line logged when the mock fails unexpectedly. A string literal every bundle holding the
 * handlers keeps through minification: `animal-store-mock check-bundle` looks for it.
 */
export const failureLogPrefix = 'animal-store mock: unexpected failure on'

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
  /** The sessions the HTTP mock holds, shown by the health endpoint. */
  sessions?: () => unknown
  /** Answer a `/v1` request without `X-Mock-Session` with 400 `session_required` (`--require-session`). */
  requireSession?: boolean
  /** Records every `/v1` exchange as a Pact interaction (`--record`, `record` in the options). */
  recorder?: PactRecorder
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
  const control = {
    contractVersion: contract.document.info.version,
    operationIds: operationIdsOf(contract),
    ...(options.sessions ? { sessions: options.sessions } : {}),
    ...(options.recorder ? { pact: () => options.recorder?.pact() } : {}),
  }
  const deprecationHeaders = new Map(
    contract.operations
      .filter((operation) => operation.deprecated)
      .map((operation) => [operation, deprecationOf(operation)]),
  )

  const answers = new ResponseCache()
  for (const id of state.conditions.byOperation.keys()) {
    if (!contract.operations.some((operation) => operation.operationId === id)) {
      throw new Error(
        `Unknown operation "${id}" in per-operation latency or fault settings: use ${contract.operations.map((operation) => operation.operationId).join(', ')}.`,
      )
    }
  }
  // One remembered Authorization and its verdict: a frontend sends the same header on every request,
  // so the journal's `authorized` costs a string comparison, not a second authentication.
  let lastAuthorization: string | undefined
  let lastAuthorized = false
  const isAuthorized = (request: MockRequest) => {
    const header = request.headers.authorization
    if (header === undefined) return false
    if (header !== lastAuthorization) {
      lastAuthorization = header
      lastAuthorized = authenticate(request, apiKeys) === undefined
    }
    return lastAuthorized
  }
  const operationIdOf = (request: MockRequest) => {
    const match = route(request.method, request.path.slice(basePath.length))
    return match.kind === 'operation' ? match.operation.operationId : undefined
  }
  const journal = (request: MockRequest, response: MockResponse, decision: Decision | undefined) => {
    if (state.journal.size === 0) return
    state.journal.record(
      request.method,
      withoutKeys(request.path),
      withoutKeys(request.query),
      response.status === 0 ? null : response.status,
      decision?.delayMs ?? 0,
      decision?.fault ?? null,
      isAuthorized(request),
    )
  }
  const recorder = options.recorder
  /**
   * What the consumer really did, as the Pact recorder keeps it: an exchange with an accepted key that the
   * contract's operations answered. Injected faults and answers forced by `Prefer` are the mock's test
   * aids, not the API: they are counted, never replayed on a server.
   */
  const record = (
    recorder: PactRecorder,
    request: MockRequest,
    answer: MockResponse,
    decision?: Decision,
  ) => {
    if (decision?.fault !== undefined || answer.status === 0) return recorder.skip('fault injected')
    if (/\b(?:code|example)=/.test(request.headers.prefer ?? ''))
      return recorder.skip('answer forced by Prefer')
    if (!isAuthorized(request)) return recorder.skip('no accepted key')
    // A key anywhere but in Authorization (a URL, a body) would be written into the file: not recorded.
    if (carriesKey(request)) return recorder.skip('key outside Authorization')
    const match = route(request.method, request.path.slice(basePath.length))
    if (match.kind !== 'operation') return recorder.skip('no such operation')
    const header = request.headers['x-mock-test']
    const testName = header === undefined ? recorder.testName() : header
    recorder.record({
      operation: match.operation,
      pathParams: match.pathParams,
      request,
      response: answer,
      ...(testName === undefined ? {} : { testName }),
    })
  }
  const carriesKey = (request: MockRequest) => {
    const sent = `${request.path}?${request.query}\n${request.body ?? ''}`
    for (const key of apiKeys)
      if (key !== '' && (sent.includes(key) || sent.includes(encodeURIComponent(key)))) return true
    return false
  }
  // The journal never holds a key, even one a client put in the URL by mistake.
  const withoutKeys = (text: string) => {
    for (const key of apiKeys) if (key !== '' && text.includes(key)) text = text.replaceAll(key, '<key>')
    return text
  }

  /**
   * The answer without latency or faults, CORS included: cached, or authenticated, routed, validated and
   * acted on. The cache keeps it with its CORS headers (its key includes Origin), so a page polling the
   * same list costs one lookup.
   */
  const serve = (request: MockRequest): MockResponse => {
    const key = answers.keyOf(request)
    const version = state.store.version
    const cached = key === undefined ? undefined : answers.get(version, key)
    if (cached) return cached
    const answer = request.path.startsWith(`${basePath}/`)
      ? handleApi(request)
      : errorResponse(
          'not_found',
          `No such path: ${request.path}. The API lives under ${basePath}/, e.g. ${basePath}/pets.`,
        )
    const response = withCors(answer, request.headers.origin)
    if (key !== undefined) answers.set(version, key, response)
    return response
  }
  // CORS matters only to browsers, which always send Origin on the requests it governs; a fault that
  // sends no answer needs none.
  const withCors = (answer: MockResponse, origin: string | undefined) =>
    origin === undefined || answer.status === 0 ? answer : withHeaders(answer, cors(origin))

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
    const removed = removedAnswer(operation, state.date, basePath)
    if (removed) return removed
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

  /** The answer a faulted request gets instead of being served: it never touches the store. */
  const faulted = (request: MockRequest, { fault, cause }: Decision): MockResponse => {
    switch (fault) {
      case '503':
      case '500':
        return faultAnswer(fault, cause)
      case 'reset':
      case 'timeout':
        return { status: 0, headers: { [faultHeader]: fault }, fault }
      default:
        // A read is served and cut short; a write cannot be (it would store), so its 503 is cut instead.
        return {
          ...(request.method === 'GET' ? serve(request) : faultAnswer('503', cause)),
          fault: 'truncate',
        }
    }
  }

  return (received) => {
    const origin = received.headers.origin
    // Every spelling RFC 3986 makes the same URI is the same resource, auth included.
    const normalized = normalizePath(received.path)
    const request = normalized === received.path ? received : { ...received, path: normalized }
    try {
      const path = request.path
      // The control endpoints grant no CORS at all, preflight included: no page on another origin may
      // reset the store or read it (README, "Threat model").
      if (isControlPath(path)) return handleControl(request, state, control)
      if (request.method.toUpperCase() === 'OPTIONS') return preflightAnswer(cors(origin))
      // Latency and faults are decided first, like a slow or failing network in front of the API: a
      // faulted request never reaches the store. With none set and no Prefer header, this costs one test.
      let decision: Decision | undefined
      let answer: MockResponse | undefined
      const underApi = path.startsWith(`${basePath}/`)
      const refused = underApi && options.requireSession ? sessionRequired(request, basePath) : undefined
      if (refused !== undefined) {
        const answer = withCors(refused, origin)
        journal(request, answer, undefined)
        return answer
      }
      if (underApi && (state.conditions.active || request.headers.prefer !== undefined)) {
        const operationId = state.conditions.byOperation.size > 0 ? operationIdOf(request) : undefined
        const decided = decideConditions(request, operationId, state.conditions, state.random)
        if (decided !== undefined && 'status' in decided) answer = decided
        else decision = decided
      }
      if (answer !== undefined) answer = withCors(answer, origin)
      else answer = decision?.fault ? withCors(faulted(request, decision), origin) : serve(request)
      if (decision) answer = applied(answer, decision)
      // Only /v1 is journaled: MSW never sees other paths, so the journal is the same in every runtime.
      if (underApi) journal(request, answer, decision)
      if (underApi && recorder) record(recorder, request, answer, decision)
      return answer
    } catch (error) {
      log(`${failureLogPrefix} ${request.method} ${request.path}: ${(error as Error).stack ?? String(error)}`)
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

/** The answer with the decision's marks: the delay, `Preference-Applied` and the fault header. */
function applied(answer: MockResponse, decision: Decision): MockResponse {
  if (decision.applied.length === 0 && decision.fault === undefined)
    return { ...answer, delayMs: decision.delayMs }
  const headers = { ...answer.headers }
  if (decision.applied.length > 0) {
    const earlier = headers['preference-applied']
    const now = decision.applied.join(', ')
    headers['preference-applied'] = earlier === undefined ? now : `${earlier}, ${now}`
  }
  if (decision.fault !== undefined) headers[faultHeader] = decision.fault
  return { ...answer, headers, ...(decision.delayMs > 0 ? { delayMs: decision.delayMs } : {}) }
}

/**
 * The answer of an operation past its sunset (`x-sunset`) on the mock's day: 410 Gone (RFC 9110 §15.5.11,
 * removed for good, which a 404 does not say) with the Error body, naming the day and the replacement.
 */
function removedAnswer(
  operation: Operation,
  date: string | undefined,
  basePath: string,
): MockResponse | undefined {
  const sunset = operation.extensions['x-sunset']
  if (typeof sunset !== 'string') return undefined
  const today = date ?? new Date().toISOString().slice(0, 10)
  if (today < sunset) return undefined
  const replacement = replacementOf(operation.extensions['x-replaced-by'])
  return errorResponse(
    'operation_removed',
    `${operation.method} ${basePath}${operation.path} was removed on ${sunset}, its sunset${replacement ? `; use ${replacement}` : ''}.`,
  )
}

/** The contract's operation ids, the names per-operation latency and fault settings accept. */
export function operationIdsOf(contract: Contract): string[] {
  return contract.operations.flatMap((operation) => (operation.operationId ? [operation.operationId] : []))
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
