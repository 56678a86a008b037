// One exchange the mock answered, as a Pact interaction: its provider state, injected ids and matching rules.
import { keepDeclaredMembers } from '../../contract/declared-members.ts'
import { stringifyExactJson } from '../../contract/exact-json.ts'
import type { Contract, Operation } from '../../contract/index.ts'
import { isRecord } from '../../contract/openapi-document.ts'
import { isJsonMediaType, parseJsonBody } from './json-body.ts'
import type { MockRequest, MockResponse } from './mock-http.ts'
import {
  type PactBody,
  type PactInteraction,
  type PactMatchingRules,
  type PactProviderState,
  type PactRequest,
  pactStates,
} from './pact-document.ts'

/** A request the mock routed to an operation, with the answer it sent and the test that sent it. */
export interface RecordedExchange {
  operation: Operation
  /** The path parameters as received, e.g. `{ petId: '12' }`. */
  pathParams: Record<string, string>
  request: MockRequest
  response: MockResponse
  /** The test that sent it, when the runtime knows (vitest's current test, Playwright's title). */
  testName?: string
}

// The request headers a replay needs. Never a credential: a verifier adds the provider's own key.
const keptRequestHeaders = ['accept', 'content-type']

const integerText = /^-?\d{1,19}$/
const idPlaceholder = ['$', '{id}'].join('')

/**
 * What makes two exchanges the same interaction: the operation, the status, the query's names (and its
 * values, numbers aside: `status=sold` and `status=pending` differ, `limit=5` and `limit=10` do not),
 * the body's members with their JSON types, and whether each path parameter is an id or something else.
 */
export function shapeOf(exchange: RecordedExchange): string {
  const { operation, request, response, pathParams } = exchange
  const query = [...new URLSearchParams(request.query)]
    .map(([name, value]) => (integerText.test(value) ? name : `${name}=${value}`))
    .sort()
  const body = parsedBody(request.body, request.headers['content-type'])
  const members = isRecord(body)
    ? Object.entries(body)
        .map(([name, value]) => `${name}:${jsonType(value)}`)
        .sort()
    : [body === undefined ? '' : jsonType(body)]
  const path = Object.entries(pathParams).map(
    ([name, raw]) => `${name}=${integerText.test(raw) ? 'id' : raw}`,
  )
  return JSON.stringify([operation.id, response.status, query, members, path])
}

/**
 * The Pact interaction of an exchange. What the consumer sent is kept exactly; what the mock generated
 * is matched by type. A path that named a pet by id gets its id from a provider state ("a pet exists"
 * with the pet's fields, or "no pet has the id"), so the interaction replays on a server with other ids.
 */
export function interactionOf(
  contract: Contract,
  basePath: string,
  exchange: RecordedExchange,
): PactInteraction {
  const { operation, request, response } = exchange
  const sent = parsedBody(request.body, request.headers['content-type'])
  const answered = parsedBody(response.body, response.headers['content-type'])
  const states = providerStates(contract, exchange, answered)
  const pactRequest: PactRequest = { method: request.method.toUpperCase(), path: request.path }
  const query = queryOf(request.query)
  if (query) pactRequest.query = query
  const headers = keptHeaders(request.headers)
  if (headers) pactRequest.headers = headers
  if (request.body !== undefined)
    pactRequest.body = bodyOf(sent, request.body, request.headers['content-type'])
  const idParam = Object.keys(exchange.pathParams).find((name) =>
    integerText.test(exchange.pathParams[name] ?? ''),
  )
  if (states.length > 0 && idParam !== undefined) {
    pactRequest.generators = {
      path: {
        type: 'ProviderState',
        // Pact's own placeholder syntax, filled from what the state handler returns.
        expression: `${basePath}${operation.path.replace(`{${idParam}}`, idPlaceholder)}`,
        dataType: 'STRING',
      },
    }
  }
  const contentType = response.headers['content-type']
  const interaction: PactInteraction = {
    type: 'Synchronous/HTTP',
    description: describe(exchange, basePath),
    ...(states.length > 0 ? { providerStates: states } : {}),
    request: pactRequest,
    response: {
      status: response.status,
      ...(contentType === undefined ? {} : { headers: { 'content-type': [contentType] } }),
      ...(response.body === undefined ? {} : { body: bodyOf(example(answered), response.body, contentType) }),
      ...matchingRules(sent, answered, response.status, contentType),
    },
  }
  if (exchange.testName !== undefined) interaction.comments = { testname: exchange.testName }
  return interaction
}

/** "listPets: GET /v1/pets?status → 200", after the test's name when it is known. */
function describe(exchange: RecordedExchange, basePath: string): string {
  const { operation, request, response } = exchange
  const query = [...new URLSearchParams(request.query)].map(([name, value]) =>
    integerText.test(value) ? name : `${name}=${value}`,
  )
  const what = `${operation.id}: ${operation.method} ${basePath}${operation.path}${query.length ? `?${query.join('&')}` : ''} → ${response.status}`
  return exchange.testName === undefined ? what : `${exchange.testName} — ${what}`
}

/**
 * The states a replay needs: the pet a path names by id (found: "a pet exists" with its fields; not
 * found: "no pet has the id"), or the first pet of a list the mock answered with pets in it.
 */
function providerStates(
  contract: Contract,
  exchange: RecordedExchange,
  answered: unknown,
): PactProviderState[] {
  const { pathParams, response } = exchange
  const namesId = Object.values(pathParams).some((raw) => integerText.test(raw))
  const ok = response.status >= 200 && response.status < 300
  const pet = namesId ? answered : Array.isArray(answered) ? answered[0] : undefined
  if (namesId && response.status === 404) return [{ name: pactStates.noPet }]
  if (!ok || !isRecord(pet)) return []
  const params = petFields(contract, pet)
  return params ? [{ name: pactStates.petExists, params }] : []
}

/** The members of a pet that creating one takes: the create operation's request schema decides which. */
function petFields(contract: Contract, pet: Record<string, unknown>): Record<string, unknown> | undefined {
  const pointer = contract.operations.find((operation) => operation.operationId === 'createPet')?.requestBody
    ?.schemaPointer
  if (pointer === undefined) return undefined
  const fields = { ...pet }
  keepDeclaredMembers(contract.document, pointer, fields)
  return fields
}

function matchingRules(
  sent: unknown,
  answered: unknown,
  status: number,
  contentType: string | undefined,
): { matchingRules?: PactMatchingRules } {
  const rules: PactMatchingRules = {}
  if (contentType !== undefined && isJsonMediaType(contentType))
    rules.header = {
      'content-type': {
        combine: 'AND',
        matchers: [{ match: 'regex', regex: '^application/json(\\s*;.*)?$' }],
      },
    }
  if (!isRecord(answered) && !Array.isArray(answered))
    return Object.keys(rules).length ? { matchingRules: rules } : {}
  const body: NonNullable<PactMatchingRules['body']> = {}
  // What the mock generated: the same JSON types, not its values. A list: any number of items like its first.
  body.$ = {
    combine: 'AND',
    matchers: [Array.isArray(answered) ? { match: 'type', min: 0 } : { match: 'type' }],
  }
  if (isRecord(answered)) {
    // What the consumer sent and the answer gives back (a created pet's name) is the consumer's: exact.
    if (isRecord(sent))
      for (const [name, value] of Object.entries(sent))
        if (Object.hasOwn(answered, name) && sameJson(answered[name], value))
          body[memberPath(name)] = { combine: 'AND', matchers: [{ match: 'equality' }] }
    // The contract's Error carries the HTTP status it came with.
    if (status >= 400 && answered.status === status)
      body['$.status'] = { combine: 'AND', matchers: [{ match: 'equality' }] }
  }
  rules.body = body
  return { matchingRules: rules }
}

/** The answer as an example: a list keeps only its first item, which the type rule holds every item to. */
function example(answered: unknown): unknown {
  return Array.isArray(answered) ? answered.slice(0, 1) : answered
}

function bodyOf(parsed: unknown, text: string, contentType: string | undefined): PactBody {
  if (parsed !== undefined) return { contentType: 'application/json', encoded: false, content: parsed }
  return { contentType: contentType ?? 'text/plain', encoded: false, content: text }
}

function parsedBody(text: string | undefined, contentType: string | undefined): unknown {
  if (text === undefined || contentType === undefined || !isJsonMediaType(contentType)) return undefined
  const parsed = parseJsonBody(text)
  return parsed.ok ? parsed.value : undefined
}

function queryOf(query: string): Record<string, string[]> | undefined {
  if (query === '') return undefined
  const map: Record<string, string[]> = {}
  for (const [name, value] of new URLSearchParams(query)) map[name] = [...(map[name] ?? []), value]
  return map
}

function keptHeaders(headers: MockRequest['headers']): Record<string, string[]> | undefined {
  const kept: Record<string, string[]> = {}
  for (const name of keptRequestHeaders) {
    const value = headers[name]
    if (value !== undefined) kept[name] = [value]
  }
  return Object.keys(kept).length ? kept : undefined
}

function memberPath(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `$.${name}` : `$['${name.replaceAll("'", "\\'")}']`
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'bigint') return 'number'
  return typeof value
}

function sameJson(a: unknown, b: unknown): boolean {
  return stringifyExactJson(a) === stringifyExactJson(b)
}
