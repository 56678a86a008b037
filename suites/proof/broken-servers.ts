// Our mock with one defect injected per server and the finding each must give; and oddities it must pass.
import { parseExactJson, stringifyExactJson } from '../../contract/exact-json.ts'
import { isRecord } from '../../contract/openapi-document.ts'
import type { MockRequest, MockResponse } from '../../mocks/core/mock-http.ts'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import type { RuleId } from '../judging/findings.ts'

/** The key every broken server accepts (where its defect does not make it accept more). */
export const brokenServerKey = 'broken-key'

type Handle = (request: MockRequest) => MockResponse

/** The finding a broken server must produce: the rule it breaks, on the operation where it shows first. */
interface ExpectedFinding {
  rule: RuleId
  operation: string
  /** It must be the run's only finding: one defect, one finding, wherever its damage shows. */
  only?: true
}

/** A server with one realistic defect: our mock with that defect injected around its core. */
export interface BrokenServer {
  /** A short, unique name (kebab-case). */
  name: string
  /** What the server does wrong, in a sentence. */
  defect: string
  expectedFinding: ExpectedFinding
  build(): Handle
}

const isPets = (request: MockRequest) => request.path === '/v1/pets'
const isPet = (request: MockRequest) => /^\/v1\/pets\/[^/]+$/.test(request.path)
const isCreate = (request: MockRequest) => request.method === 'POST' && isPets(request)
const key = `Bearer ${brokenServerKey}`
const query = (request: MockRequest) => new URLSearchParams(request.query)
const withQuery = (request: MockRequest, change: (params: URLSearchParams) => void): MockRequest => {
  const params = query(request)
  change(params)
  return { ...request, query: params.toString() }
}
// Exact JSON, as the mock itself reads and writes it: a defect rewrites one thing, never int64s by the way.
const jsonBody = (response: MockResponse) =>
  parseExactJson(response.body ?? 'null') as ReturnType<typeof JSON.parse>
const withJson = (response: MockResponse, value: unknown): MockResponse => ({
  ...response,
  body: stringifyExactJson(value),
})
/** An answer with a JSON body, as a layer in front of the core writes one. */
const jsonAnswer = (status: number, body: string): MockResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body,
})
/** A create that succeeded. */
const created = (request: MockRequest, response: MockResponse) =>
  request.method === 'POST' && response.status === 201
/** The response's JSON object without one of its fields. */
const without = (field: string) => (response: MockResponse) => {
  const { [field]: _, ...rest } = jsonBody(response)
  return withJson(response, rest)
}
const parseOr = (text: string | undefined) => {
  try {
    return parseExactJson(text ?? '') as ReturnType<typeof JSON.parse>
  } catch {
    return undefined
  }
}

/** Builds a broken server from a wrapper around a fresh mock's core. */
function broken(
  defect: string,
  expectedFinding: ExpectedFinding,
  wrap: (handle: Handle) => Handle,
): BrokenServer {
  return {
    name: slug(defect),
    defect,
    expectedFinding,
    build: () => wrap(createMockApi({ apiKeys: [brokenServerKey], pets: 30 }).handle),
  }
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** Rewrites requests before the core sees them. */
const before = (
  defect: string,
  expected: ExpectedFinding,
  when: (r: MockRequest) => boolean,
  change: (r: MockRequest) => MockRequest,
) => broken(defect, expected, (handle) => (request) => handle(when(request) ? change(request) : request))

/** Rewrites responses after the core answered. */
const after = (
  defect: string,
  expected: ExpectedFinding,
  when: (r: MockRequest, s: MockResponse) => boolean,
  change: (s: MockResponse, r: MockRequest) => MockResponse,
) =>
  broken(defect, expected, (handle) => (request) => {
    const response = handle(request)
    return when(request, response) ? change(response, request) : response
  })

/**
 * Servers the suite must fail against, one defect each. A defect the suite lets through is a bug in the
 * suite. They exist to prove the suite, never to be served to anyone.
 */
export const brokenServers: BrokenServer[] = [
  broken(
    'stores nothing: every create and every get of an id it gave out answers the same placeholder pet',
    { rule: 'changed-value', operation: 'createPet' },
    (handle) => {
      // Creates are validated by a scratch mock whose store nobody reads: the server keeps nothing.
      const scratch = createMockApi({ apiKeys: [brokenServerKey], pets: 0 })
      const issued = new Set<string>()
      let nextId = 7_000_000
      const placeholder = (id: number) => ({ id, name: 'placeholder', categoryId: 1, status: 'available' })
      return (r) => {
        const id = /^\/v1\/pets\/(\d+)$/.exec(r.path)?.[1]
        if (r.method === 'GET' && id !== undefined && issued.has(id) && r.headers.authorization === key)
          return jsonAnswer(200, JSON.stringify(placeholder(Number(id))))
        if (!isCreate(r)) return handle(r)
        const response = scratch.handle(r)
        if (response.status !== 201) return response
        issued.add(String(nextId))
        return withJson(response, placeholder(nextId++))
      }
    },
  ),
  before(
    'auth hole: a request without a key is served',
    { rule: 'auth', operation: 'listPets' },
    (r) => r.headers.authorization === undefined && !r.path.startsWith('/__'),
    (r) => ({ ...r, headers: { ...r.headers, authorization: key } }),
  ),
  before(
    'auth hole: any bearer key is accepted',
    { rule: 'auth', operation: 'listPets' },
    (r) => /^bearer /i.test(r.headers.authorization ?? ''),
    (r) => ({ ...r, headers: { ...r.headers, authorization: key } }),
  ),
  before(
    'auth hole: the key is accepted without the Bearer scheme',
    { rule: 'auth', operation: 'listPets' },
    (r) => r.headers.authorization === brokenServerKey,
    (r) => ({ ...r, headers: { ...r.headers, authorization: key } }),
  ),
  broken(
    'auth hole: /store/orders is open',
    { rule: 'auth', operation: 'GET /store/orders' },
    (handle) => (r) => (r.path === '/v1/store/orders' ? jsonAnswer(200, '[]') : handle(r)),
  ),
  broken(
    'auth order: an invalid body is reported before the missing key',
    { rule: 'auth', operation: 'createPet' },
    (handle) => (r) =>
      isCreate(r) && r.headers.authorization === undefined && parseOr(r.body) === undefined
        ? jsonAnswer(400, '{"code":"bad","message":"bad body","status":400}')
        : handle(r),
  ),
  after(
    '401 body is not an Error',
    { rule: 'body-schema', operation: 'listPets' },
    (_, s) => s.status === 401,
    (s) => withJson(s, { error: 'unauthorized' }),
  ),
  after(
    'Error status field disagrees with the HTTP status',
    { rule: 'error-status', operation: 'getPet' },
    (_, s) => s.status === 404,
    (s) => withJson(s, { ...jsonBody(s), status: 400 }),
  ),
  after(
    'Error bodies lack code',
    { rule: 'body-schema', operation: 'createPet' },
    (_, s) => s.status === 400,
    (s) => withJson(s, { message: jsonBody(s).message, status: 400 }),
  ),
  after(
    'the list is wrapped in an object',
    { rule: 'body-schema', operation: 'listPets' },
    (r, s) => isPets(r) && r.method === 'GET' && s.status === 200,
    (s) => withJson(s, { pets: jsonBody(s) }),
  ),
  before(
    'limit is ignored',
    { rule: 'limit', operation: 'listPets' },
    (r) => isPets(r) && r.method === 'GET',
    (r) => withQuery(r, (p) => p.set('limit', '100')),
  ),
  before(
    'the default page is 50',
    { rule: 'limit', operation: 'listPets' },
    (r) => isPets(r) && r.method === 'GET' && !query(r).has('limit'),
    (r) => withQuery(r, (p) => p.set('limit', '50')),
  ),
  before(
    'limit=0 is served as the default',
    { rule: 'invalid-not-refused', operation: 'listPets' },
    (r) => isPets(r) && query(r).get('limit') === '0',
    (r) => withQuery(r, (p) => p.delete('limit')),
  ),
  broken(
    'a limit above 100 is a 500',
    { rule: 'server-error', operation: 'listPets' },
    (handle) => (r) =>
      isPets(r) && Number(query(r).get('limit')) > 100
        ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'RangeError' }
        : handle(r),
  ),
  before(
    'the status filter is ignored',
    { rule: 'filter', operation: 'listPets' },
    (r) => isPets(r) && query(r).has('status'),
    (r) => withQuery(r, (p) => p.delete('status')),
  ),
  before(
    'an unknown status is ignored',
    { rule: 'invalid-not-refused', operation: 'listPets' },
    (r) => isPets(r) && !['available', 'pending', 'sold', null].includes(query(r).get('status')),
    (r) => withQuery(r, (p) => p.delete('status')),
  ),
  after(
    'the status filter loses pets',
    { rule: 'lost-write', operation: 'listPets' },
    (r) => isPets(r) && query(r).get('status') === 'sold',
    (s) => withJson(s, []),
  ),
  after('create answers 200', { rule: 'undeclared-status', operation: 'createPet' }, created, (s) => ({
    ...s,
    status: 200,
  })),
  after(
    'create does not echo status',
    { rule: 'changed-value', operation: 'createPet' },
    created,
    without('status'),
  ),
  after(
    'create uses the client-sent id',
    { rule: 'client-id', operation: 'createPet' },
    (r, s) => created(r, s) && typeof parseOr(r.body)?.id === 'number',
    (s, r) => withJson(s, { ...jsonBody(s), id: parseOr(r.body).id }),
  ),
  broken('create loses writes', { rule: 'lost-write', operation: 'getPet' }, (handle) => {
    let fakeId = 5_000_000
    return (r) => {
      const response = handle(r)
      if (r.method !== 'POST' || response.status !== 201) return response
      return withJson(response, { ...jsonBody(response), id: fakeId++ })
    }
  }),
  broken('create gives every pet the same id', { rule: 'duplicate-id', operation: 'createPet' }, (handle) => {
    // The id of the first pet it created, so the one defect is the repeat: a fixed id such as 1 would
    // also name a seeded pet, which a run whose very first create got it reads as a changed value.
    let first: string | undefined
    return (r) => {
      const response = handle(r)
      if (!(r.method === 'POST' && response.status === 201)) return response
      const id = /"id":(-?\d+)/.exec(response.body ?? '')?.[1]
      first ??= id
      // Rewritten as text: JSON.parse would also round the int64s beyond 2^53 it echoes, a second defect.
      return { ...response, body: response.body?.replace(/"id":-?\d+/, `"id":${first}`) }
    }
  }),
  before(
    'create accepts a body without name',
    { rule: 'invalid-accepted', operation: 'createPet' },
    (r) =>
      isCreate(r) &&
      parseOr(r.body)?.name === undefined &&
      typeof parseOr(r.body) === 'object' &&
      !Array.isArray(parseOr(r.body)),
    (r) => ({ ...r, body: JSON.stringify({ ...parseOr(r.body), name: 'unnamed' }) }),
  ),
  broken(
    'malformed JSON is a 500',
    { rule: 'server-error', operation: 'createPet' },
    (handle) => (r) =>
      isCreate(r) && r.headers.authorization === key && r.body && parseOr(r.body) === undefined
        ? jsonAnswer(500, '{"code":"internal","message":"SyntaxError","status":500}')
        : handle(r),
  ),
  before(
    'a string categoryId is coerced',
    { rule: 'invalid-accepted', operation: 'createPet' },
    (r) => r.method === 'POST' && typeof parseOr(r.body)?.categoryId === 'string',
    (r) => ({
      ...r,
      body: JSON.stringify({ ...parseOr(r.body), categoryId: Number(parseOr(r.body).categoryId) }),
    }),
  ),
  before(
    'an unknown status is dropped on create',
    { rule: 'invalid-accepted', operation: 'createPet' },
    (r) =>
      r.method === 'POST' &&
      typeof parseOr(r.body)?.status === 'string' &&
      !['available', 'pending', 'sold'].includes(parseOr(r.body).status),
    (r) => {
      const { status: _, ...rest } = parseOr(r.body)
      return { ...r, body: JSON.stringify(rest) }
    },
  ),
  before(
    'a categoryId beyond int64 is clamped',
    { rule: 'invalid-accepted', operation: 'createPet' },
    (r) => r.method === 'POST' && /"categoryId":\d{16,}/.test(r.body ?? ''),
    (r) => ({ ...r, body: (r.body ?? '').replace(/"categoryId":\d{16,}/, '"categoryId":1') }),
  ),
  after(
    'an unknown pet is 200 with an empty object',
    { rule: 'wrong-status', operation: 'getPet' },
    (r, s) => isPet(r) && s.status === 404,
    (s) => ({ ...withJson(s, {}), status: 200 }),
  ),
  after(
    'a pet’s id comes back as a string',
    { rule: 'body-schema', operation: 'getPet' },
    (r, s) => isPet(r) && s.status === 200,
    (s) => withJson(s, { ...jsonBody(s), id: String(jsonBody(s).id) }),
  ),
  broken(
    'a non-numeric pet id is a 500',
    { rule: 'server-error', operation: 'getPet' },
    (handle) => (r) =>
      isPet(r) && !/\/\d+$/.test(r.path) && r.headers.authorization === key
        ? { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>Internal Server Error</h1>' }
        : handle(r),
  ),
  after(
    'the list is served as text/plain',
    { rule: 'content-type', operation: 'listPets' },
    (r, s) => isPets(r) && r.method === 'GET' && s.status === 200,
    (s) => ({ ...s, headers: { ...s.headers, 'content-type': 'text/plain' } }),
  ),
  after(
    'Sunset names the wrong date',
    { rule: 'header', operation: 'getPet' },
    (r, s) => isPet(r) && s.headers.sunset !== undefined,
    (s) => ({ ...s, headers: { ...s.headers, sunset: 'Wed, 05 Dec 2040 00:00:00 GMT' } }),
  ),
  after(
    'int64 values beyond 2^53 come back rounded, as a JavaScript server that JSON.parses bodies sends them',
    { rule: 'changed-value', operation: 'createPet', only: true },
    (_, s) => /\d{16}/.test(s.body ?? ''),
    // Through doubles and back: 9007199254740993 becomes 9007199254740992, int64's maximum 2^63.
    (s) => ({ ...s, body: JSON.stringify(JSON.parse(s.body ?? 'null')) }),
  ),
  before(
    'a categoryId beyond int64 wraps around, as a C-style int64 cast does',
    { rule: 'invalid-accepted', operation: 'createPet', only: true },
    (r) => r.method === 'POST' && /"categoryId":-?\d{19,}/.test(r.body ?? ''),
    (r) => ({
      ...r,
      body: (r.body ?? '').replace(
        /"categoryId":(-?\d{19,})/,
        (_, digits: string) => `"categoryId":${BigInt.asIntN(64, BigInt(digits))}`,
      ),
    }),
  ),
  broken(
    'GET /store/orders is a 500 with a valid key',
    { rule: 'server-error', operation: 'GET /store/orders', only: true },
    (handle) => (r) =>
      r.path === '/v1/store/orders' && r.headers.authorization === key
        ? jsonAnswer(500, '{"code":"internal","message":"no handler","status":500}')
        : handle(r),
  ),
  after(
    'invalid bodies get 422, as FastAPI answers them',
    { rule: 'wrong-status', operation: 'createPet', only: true },
    (r, s) => r.method === 'POST' && s.status === 400,
    (s) => ({ ...withJson(s, { ...jsonBody(s), status: 422 }), status: 422 }),
  ),
  broken(
    'valid 19-digit categoryIds are refused, as Debian’s jackson-core 2.14 refuses them',
    { rule: 'valid-value-refused', operation: 'createPet', only: true },
    (handle) => (r) =>
      isCreate(r) && r.headers.authorization === key && /"categoryId":-?\d{19}\b/.test(r.body ?? '')
        ? jsonAnswer(
            400,
            '{"code":"bad_request","message":"Numeric value out of range of long","status":400}',
          )
        : handle(r),
  ),
  after(
    'the created pet lacks its id',
    { rule: 'body-schema', operation: 'createPet' },
    created,
    without('id'),
  ),
  after(
    'a pet’s categoryId is null',
    { rule: 'body-schema', operation: 'getPet' },
    (r, s) => isPet(r) && s.status === 200,
    (s) => withJson(s, { ...jsonBody(s), categoryId: null }),
  ),
  // The body near-misses: each defect below was seen on a real stack.
  before(
    'body keys are matched without regard to case, as Go’s encoding/json matches them',
    { rule: 'invalid-accepted', operation: 'createPet', only: true },
    (r) => {
      const body = r.method === 'POST' && isPets(r) ? parseOr(r.body) : undefined
      const fields = ['name', 'categoryId', 'status']
      return isRecord(body) && Object.keys(body).some((name) => !fields.includes(name))
    },
    (r) => {
      const fields = ['name', 'categoryId', 'status']
      const body = parseOr(r.body) as Record<string, unknown>
      const matched = Object.entries(body).map(([name, value]) => {
        const field = fields.find((f) => f.toLowerCase() === name.toLowerCase())
        return [field !== undefined && !(field in body) ? field : name, value]
      })
      return { ...r, body: JSON.stringify(Object.fromEntries(matched)) }
    },
  ),
  before(
    'data after the first JSON value is ignored, as Go’s json.Decoder and Jackson ignore it',
    { rule: 'invalid-accepted', operation: 'createPet', only: true },
    (r) => r.method === 'POST' && isPets(r) && parseOr(r.body) === undefined,
    (r) => ({ ...r, body: firstJsonValue(r.body ?? '') ?? r.body }),
  ),
  before(
    'a body’s status is read without regard to case or surrounding spaces, as Jackson’s ACCEPT_CASE_INSENSITIVE_ENUMS reads it',
    { rule: 'invalid-accepted', operation: 'createPet', only: true },
    // Only bodies whose status it changes are rewritten: JSON.stringify would round int64s beyond 2^53.
    (r) => {
      const status = r.method === 'POST' && isPets(r) ? parseOr(r.body)?.status : undefined
      return typeof status === 'string' && status.trim().toLowerCase() !== status
    },
    (r) => {
      const body = parseOr(r.body) as { status: string }
      return { ...r, body: JSON.stringify({ ...body, status: body.status.trim().toLowerCase() }) }
    },
  ),
  broken(
    'a name holding a lone surrogate is a 500, as psycopg’s UTF-8 encoding fails under FastAPI',
    { rule: 'server-error', operation: 'createPet', only: true },
    (handle) => (r) => {
      const name = r.method === 'POST' && isPets(r) ? parseOr(r.body)?.name : undefined
      return typeof name === 'string' && !isWellFormed(name)
        ? internalError('surrogates not allowed')
        : handle(r)
    },
  ),
  broken(
    'a name holding NUL is a 500, as Postgres text columns refuse 0x00',
    { rule: 'server-error', operation: 'createPet', only: true },
    (handle) => (r) => {
      const name = r.method === 'POST' && isPets(r) ? parseOr(r.body)?.name : undefined
      return typeof name === 'string' && name.includes('\u0000')
        ? internalError('invalid byte sequence for encoding "UTF8": 0x00')
        : handle(r)
    },
  ),
  // Schemathesis' content_type_conformance: JSON, but not the media type the contract declares.
  after(
    'pets are sent as application/hal+json, as Spring HATEOAS sends them by default',
    { rule: 'content-type', operation: 'listPets' },
    (_, s) => s.status < 300 && s.body !== undefined,
    (s) => ({ ...s, headers: { ...s.headers, 'content-type': 'application/hal+json' } }),
  ),
  // Schemathesis' unsupported_method, as real routers break it.
  before(
    'the router matches paths but not methods: PATCH /pets is served as GET',
    { rule: 'unsupported-method', operation: 'listPets', only: true },
    (r) => r.method === 'PATCH',
    (r) => ({ ...r, method: 'GET', body: undefined }),
  ),
  after(
    '405 is sent without an Allow header',
    { rule: 'unsupported-method', operation: 'listPets' },
    (_, s) => s.status === 405,
    (s) => {
      const { allow: _, ...headers } = s.headers
      return { ...s, headers }
    },
  ),
]

/** A server that differs from the mock in a way the contract allows: the suite must pass it. */
export interface CorrectServer {
  name: string
  /** What it does differently, in a sentence. */
  behaviour: string
  build(): Handle
}

/** Servers the suite must pass: what they do is their right under the contract, however unusual. */
export const correctServers: CorrectServer[] = [
  {
    name: 'go-lone-surrogates-as-replacement-character',
    behaviour: 'stores lone surrogate escapes as U+FFFD, as Go’s encoding/json decodes them',
    build: before(
      '',
      { rule: 'changed-value', operation: 'createPet' },
      (r) => r.method === 'POST' && isPets(r) && (r.body ?? '').search(loneSurrogateEscape) !== -1,
      (r) => ({ ...r, body: r.body?.replace(loneSurrogateEscape, '\\ufffd') }),
    ).build,
  },
]

// A `\uD800`-`\uDFFF` escape that is not half of a high-low pair (as text, before any parser sees it).
const loneSurrogateEscape =
  /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/g

// String.prototype.isWellFormed is Node 20+; spelled out so the intent is plain: no unpaired surrogate.
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)
}

/** The first JSON value of a text that holds more, as a streaming decoder reads it; undefined if none. */
function firstJsonValue(text: string): string | undefined {
  for (let end = 1; end <= text.length; end++) {
    if (text[end - 1] !== '}' && text[end - 1] !== ']') continue
    if (parseOr(text.slice(0, end)) !== undefined) return text.slice(0, end)
  }
  return undefined
}

/** A framework's unhandled-exception answer: 500, plain text, no Error body. */
function internalError(message: string): MockResponse {
  return { status: 500, headers: { 'content-type': 'text/plain' }, body: `Internal Server Error: ${message}` }
}
