// Checks a routed request's parameters and body against the contract, turning them into typed input.
import type { Contract, Operation } from '../../contract/index.ts'
import { errorResponse } from './error-codes.ts'
import { isJsonMediaType, parseJsonBody } from './json-body.ts'
import type { MockRequest, MockResponse } from './mock-http.ts'

/** A request's inputs after validation: parameters parsed to their schema's types, defaults applied. */
export interface RequestInput {
  params: Record<string, unknown>
  body?: unknown
}

/**
 * Validates a routed request against its operation in the contract.
 * Query parameters that break their schema get 400 `invalid_parameter`; a path parameter that cannot be
 * valid names no resource, so it gets 404 `not_found`; a bad body gets 400 `invalid_body`.
 */
export function validateRequest(
  contract: Contract,
  operation: Operation,
  request: MockRequest,
  pathParams: Record<string, string>,
): { ok: true; input: RequestInput } | { ok: false; response: MockResponse } {
  // createPet has no parameters: no need to parse its query at all.
  const query = operation.parameters.length === 0 ? emptyQuery : new URLSearchParams(request.query)
  const params: Record<string, unknown> = {}
  for (const parameter of operation.parameters) {
    const values = readRaw(parameter.in, parameter.name, query, pathParams, request)
    if (values.length > 1) {
      return refuse('invalid_parameter', `query parameter "${parameter.name}" must be given at most once`)
    }
    const raw = values[0]
    if (raw === undefined) {
      if (parameter.required) {
        return refuse('invalid_parameter', `${parameter.in} parameter "${parameter.name}" is required`)
      }
      if (parameter.defaultValue !== undefined) params[parameter.name] = parameter.defaultValue
      continue
    }
    const parsed = contract.parseParameter(operation.id, parameter.in, parameter.name, raw)
    if (!parsed.ok) {
      const reason = parsed.errors.map((error) => error.message).join('; ')
      if (parameter.in === 'path') return refuse('not_found', `No pet found: ${reason}.`)
      return refuse('invalid_parameter', `${reason}.`)
    }
    params[parameter.name] = parsed.value
  }

  if (!operation.requestBody) return { ok: true, input: { params } }
  const body = readJsonBody(request, operation.requestBody.required)
  if (!body.ok) return body
  if (body.value === undefined) return { ok: true, input: { params } }
  const validation = contract.validateRequestBody(operation.id, body.value)
  if (!validation.ok) {
    return refuse(
      'invalid_body',
      `Invalid body: ${validation.errors.map((error) => error.message).join('; ')}.`,
    )
  }
  return { ok: true, input: { params, body: validation.value } }
}

const emptyQuery = new URLSearchParams()

function readRaw(
  location: string,
  name: string,
  query: URLSearchParams,
  pathParams: Record<string, string>,
  request: MockRequest,
): string[] {
  if (location === 'query') return query.getAll(name)
  if (location === 'header')
    return request.headers[name.toLowerCase()] === undefined
      ? []
      : [request.headers[name.toLowerCase()] ?? '']
  const raw = pathParams[name]
  if (raw === undefined) return []
  try {
    return [decodeURIComponent(raw)]
  } catch {
    return [raw]
  }
}

function readJsonBody(
  request: MockRequest,
  required: boolean,
): { ok: true; value: unknown } | { ok: false; response: MockResponse } {
  const text = request.body ?? ''
  if (text.trim() === '') {
    return required
      ? refuse('invalid_body', 'Missing body: send a JSON object with "Content-Type: application/json".')
      : { ok: true, value: undefined }
  }
  const contentType = request.headers['content-type']
  if (!isJsonMediaType(contentType)) {
    return refuse(
      'invalid_body',
      `Unsupported Content-Type ${contentType === undefined ? '(none sent)' : `"${contentType}"`}: send the body as "Content-Type: application/json".`,
    )
  }
  const parsed = parseJsonBody(text)
  return parsed.ok ? parsed : refuse('invalid_body', parsed.message)
}

function refuse(code: 'invalid_parameter' | 'invalid_body' | 'not_found', message: string) {
  return { ok: false as const, response: errorResponse(code, message) }
}
