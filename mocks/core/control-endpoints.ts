// The test-control endpoints under /__mock (health, journal, reset), kept out of /v1 and its API key.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import { errorResponse } from './error-codes.ts'
import { isJsonMediaType, parseJsonBody } from './json-body.ts'
import { jsonResponse, type MockRequest, type MockResponse } from './mock-http.ts'
import type { MockState, ResetOutcome } from './mock-state.ts'
import { type ResetOptions, readResetOptions, resetOptionKeys } from './reset-options.ts'

/** What the control endpoints need to know besides the state. */
export interface ControlContext {
  contractVersion: string
  /** The contract's operation ids: the names a reset's `operations` accepts. */
  operationIds: readonly string[]
  /** The sessions the HTTP mock holds, for the health answer (absent: one mock, no sessions). */
  sessions?: () => unknown
  /** The recording as a Pact file, for `GET /__mock/pact` (absent: the mock records nothing). */
  pact?: () => unknown
}

/** Where the test-control endpoints live: outside the API's `/v1`, and not behind its API key. */
export const controlPath = '/__mock'

/** Bodies above this many bytes get 413 `payload_too_large`, on every path. */
export const maxBodyBytes = 1024 * 1024

/** Whether a request is for the control endpoints. */
export function isControlPath(path: string): boolean {
  return path === controlPath || path.startsWith(`${controlPath}/`)
}

/** Whether a request asks for `POST /__mock/reset` (valid or not). */
export function isResetRequest(request: MockRequest): boolean {
  return request.path === `${controlPath}/reset` && request.method.toUpperCase() === 'POST'
}

/**
 * Reads a `POST /__mock/reset`: the seed options, or the error to send. It must be
 * `Content-Type: application/json` even when empty: a browser sends a cross-site form or a `text/plain`
 * fetch without asking first, but asks the server (a CORS preflight, which the control endpoints never
 * grant) before any request with a JSON Content-Type.
 */
export function readResetRequest(
  request: MockRequest,
  operationIds: readonly string[],
): { ok: true; options: ResetOptions } | { ok: false; response: MockResponse } {
  const refuse = (response: MockResponse) => ({ ok: false as const, response })
  if (!isJsonMediaType(request.headers['content-type'])) {
    return refuse(
      errorResponse(
        'unsupported_media_type',
        'POST /__mock/reset needs "Content-Type: application/json" (an empty body is fine), so that web pages on other origins cannot send it.',
      ),
    )
  }
  const body = request.body ?? ''
  if (exceedsBodyLimit(body)) return refuse(payloadTooLarge())
  if (body.trim() === '') return { ok: true, options: {} }
  const parsed = parseJsonBody(body)
  if (!parsed.ok)
    return refuse(
      invalidResetBody(`${parsed.message} Send {"scenario": "empty"}, {"seed": 1, "pets": 50} or nothing.`),
    )
  const read = readResetOptions(parsed.value, operationIds)
  return read.ok ? read : refuse(invalidResetBody(read.message))
}

/** 400 invalid_body, the contract's Error with the keys a reset accepts beside it (Error allows more). */
function invalidResetBody(message: string): MockResponse {
  const refused = errorResponse('invalid_body', message)
  return jsonResponse(refused.status, { ...JSON.parse(refused.body ?? '{}'), allowedKeys: resetOptionKeys })
}

/** The answer to a reset that has finished: 200 with the new state, or 507 with the old pets kept. */
export function resetAnswer(state: MockState, outcome: ResetOutcome): MockResponse {
  if (!outcome.ok) return errorResponse('store_full', `${outcome.reason} The pets stored before are kept.`)
  return jsonResponse(200, {
    status: 'reset',
    pets: state.store.size,
    seed: state.seed,
    scenario: state.scenario,
  })
}

/** The answer to a request under `/__mock`, resetting all at once (adapters may reset in steps instead). */
export function handleControl(request: MockRequest, state: MockState, context: ControlContext): MockResponse {
  const method = request.method.toUpperCase()
  if (request.path === `${controlPath}/health` && method === 'GET') {
    const { store } = state
    return jsonResponse(200, {
      status: 'ok',
      pets: store.size,
      seed: state.seed,
      scenario: state.scenario,
      contractVersion: context.contractVersion,
      storeBytes: store.usedBytes,
      maxStoreBytes: store.budget.maxStoreBytes,
      ...(context.sessions ? { sessions: context.sessions() } : {}),
    })
  }
  if (request.path === `${controlPath}/requests` && method === 'GET') {
    // The journal holds no header, so the key cannot leak through it; like health, it grants no CORS.
    return jsonResponse(200, { requests: state.journal.list() })
  }
  if (request.path === `${controlPath}/pact`) {
    // In every runtime the recording can be read; writing it to a folder is the HTTP mock's (POST, in Node).
    if (method !== 'GET')
      return errorResponse(
        'method_not_allowed',
        `${method} is not allowed on ${request.path} here; use GET.`,
        {
          allow: 'GET',
        },
      )
    return context.pact
      ? {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: stringifyExactJson(context.pact()),
        }
      : errorResponse(
          'not_found',
          "This mock records nothing: create it with record: { consumer: 'web-app' }, or start it with --record DIR --consumer NAME.",
        )
  }
  if (isResetRequest(request)) {
    const read = readResetRequest(request, context.operationIds)
    return read.ok ? resetAnswer(state, state.reset(read.options)) : read.response
  }
  if (
    request.path === `${controlPath}/health` ||
    request.path === `${controlPath}/requests` ||
    request.path === `${controlPath}/reset`
  ) {
    const allow = request.path.endsWith('/reset') ? 'POST' : 'GET'
    return errorResponse('method_not_allowed', `${method} is not allowed on ${request.path}; use ${allow}.`, {
      allow,
    })
  }
  return errorResponse(
    'not_found',
    `No such control endpoint: ${method} ${request.path}. Use GET ${controlPath}/health, GET ${controlPath}/requests, POST ${controlPath}/reset or GET ${controlPath}/pact.`,
  )
}

/** Whether a body is over `maxBodyBytes` in UTF-8. */
export function exceedsBodyLimit(text: string | undefined): boolean {
  if (text === undefined) return false
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most bodies are decided without encoding them.
  if (text.length * 3 <= maxBodyBytes) return false
  if (text.length > maxBodyBytes) return true
  return new TextEncoder().encode(text).length > maxBodyBytes
}

export function payloadTooLarge(): MockResponse {
  return errorResponse(
    'payload_too_large',
    `The body is larger than ${maxBodyBytes} bytes (1 MiB); send a smaller one.`,
  )
}
