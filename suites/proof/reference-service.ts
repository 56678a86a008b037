// A correct Animal Store written apart from mocks/, in replaceable stages: a second reading of the contract.
import { createHash } from 'node:crypto'
import { isInteger, parse, stringify } from 'lossless-json'
import { contract } from '../../contract/index.ts'

/**
 * A correct Animal Store written from the contract and the service description, in named stages, for the
 * suite's proof. It shares no code with mocks/: a second, independent reading of the same contract.
 * Each stage can be replaced (see `Defect`), which is how the realistic broken servers get one defect each.
 */

/** An int64 as this server holds it: a number while safe, a bigint beyond (read by lossless-json). */
export type Long = number | bigint

export type PetRecord = { id: Long; name: string; categoryId: Long; status?: string } & Record<
  string,
  unknown
>

/** How a server differs from our mock where the contract leaves it open. */
export interface ReferenceStyle {
  /**
   * `random`: ids drawn from the whole safe integer range. `random-63-bit`: from the whole positive int64
   * range (nearly all beyond 2^53, bigints). `offset-gaps`: from 10^12 up, with gaps.
   */
  ids: 'random' | 'random-63-bit' | 'offset-gaps'
  /** `newest-first`, or by name (code unit order), then id. */
  order: 'newest-first' | 'by-name'
  /** A status the server gives a pet created without one (the contract states no default). */
  defaultStatus?: string
  /** The Content-Type of JSON responses. */
  contentType: string
  /** Sends `Connection: close` and closes after each response. */
  connectionClose: boolean
  /** Sends bodies chunked (no Content-Length). */
  chunked: boolean
  /** The status for a bad query parameter or path id: 400, or 422 (an undeclared 4xx, a warning by policy). */
  badParameterStatus: 400 | 404 | 422
  /** Fields of its own in every Pet (Pet has no `additionalProperties: false`). */
  extraFields: boolean
  /** Sends `Deprecation` and `Sunset` on getPet (both optional in the contract). */
  deprecationHeaders: boolean
  /** Pets made by "other clients" before the run, with non-ASCII names. */
  seededPets: number
  /** Seeded names from every Unicode plane in use (BMP to 16) and categoryIds beyond 2^53. */
  seededExtremes?: boolean
  /** What an authorised `GET /store/orders` gets (the contract leaves it open). */
  orders: 'empty-list' | 'not-implemented'
  /** Compresses every body (br, gzip, deflate in turn) the request's Accept-Encoding allows. */
  compress?: boolean
  /** A (weak) ETag on every 200 to a GET, and 304 when the request's If-None-Match holds it. */
  etags?: boolean
  /** JSON indented by two spaces, a newline at the end. */
  pretty?: boolean
  /**
   * Names what each answer is (RFC 9110 §8.7, RFC 8288): `Content-Location` and `Link: <…>; rel="self"` on
   * a page of the list (its own request target), and `Content-Location` beside `Location` on a 201.
   */
  selfLinks?: boolean
}

/** A request as the stages see it: the raw request-target, headers as Node gives them, the body bytes. */
export interface ServiceRequest {
  method: string
  target: string
  headers: Record<string, string | string[] | undefined>
  body?: Buffer
}

export interface ServiceResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
}

type Route =
  | { operation: 'listPets' }
  | { operation: 'createPet' }
  | { operation: 'getPet'; rawId: string }
  | { operation: 'GET /store/orders' }
  | { operation: 'none'; allow?: string }

type Refusal = { refuse: string }

/** The stages a request passes through, in order. A defect replaces one. */
interface Stages {
  /** Answers before anything else when it returns a response (a defect's unauthenticated side door). */
  intercept(request: ServiceRequest): ServiceResponse | undefined
  authorize(header: string | undefined): boolean
  /** RFC 3986 §6.2.2 syntax-based normalisation of the path: unreserved percent-decoding, dot segments. */
  normalisePath(rawPath: string): string
  route(method: string, path: string): Route
  decodeBody(bytes: Buffer): string | Refusal
  parseQuery(params: URLSearchParams): { limit: number; status?: string } | Refusal
  parseNewPet(text: string): { name: string; categoryId: Long; status?: string } | Refusal
  parsePetId(raw: string): Long | Refusal
  create(pet: { name: string; categoryId: Long; status?: string }): PetRecord | Promise<PetRecord>
  find(id: Long): PetRecord | undefined
  list(limit: number, status?: string): PetRecord[]
  /** The JSON a pet is sent as. */
  present(pet: PetRecord): Record<string, unknown>
  /** JSON text to bytes, with the Content-Type that says how. */
  encode(text: string): { contentType: string; bytes: Buffer }
  /**
   * Sees every response last, with its request: where a layer in front of the service (a cache, a gateway)
   * or the framing of the bytes (an explicit Content-Length, Transfer-Encoding) differs. Correct: as it is.
   */
  finish(response: ServiceResponse, request: ServiceRequest): ServiceResponse
}

/** Thrown by a stage to answer with an Error of its own status (a defect's 409, say). */
export class Refused extends Error {
  override name = 'Refused'
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

/** One defect: replaces some stages, given the correct ones (to wrap them). */
export type Defect = (correct: Stages, style: ReferenceStyle) => Partial<Stages>

const statuses = enumValues()
const limitParameter = contract.operation('listPets').parameters.find((p) => p.name === 'limit')
const defaultLimit = Number(limitParameter?.defaultValue ?? 20)
const maxBodyBytes = 1024 * 1024

/**
 * Builds the request handler of one reference server: its style, its key, and optionally one defect.
 * @example const handle = createReferenceService(style, 'key'); const response = await handle(request)
 */
export function createReferenceService(
  style: ReferenceStyle,
  apiKey: string,
  defect?: Defect,
): (request: ServiceRequest) => Promise<ServiceResponse> {
  const correct = correctStages(style, apiKey)
  const stages: Stages = { ...correct, ...defect?.(correct, style) }

  const json = (status: number, value: unknown, headers: Record<string, string> = {}): ServiceResponse => {
    const text = style.pretty ? `${stringify(value, undefined, 2) ?? 'null'}\n` : (stringify(value) ?? 'null')
    const { contentType, bytes } = stages.encode(text)
    return { status, headers: { 'content-type': contentType, ...headers }, body: bytes }
  }
  const error = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
    json(status, { code, message, status }, headers)

  const answer = async (request: ServiceRequest): Promise<ServiceResponse> => {
    const intercepted = stages.intercept(request)
    if (intercepted) return intercepted
    const queryAt = request.target.indexOf('?')
    const rawPath = queryAt === -1 ? request.target : request.target.slice(0, queryAt)
    const route = stages.route(request.method, stages.normalisePath(rawPath))
    const deprecation: Record<string, string> =
      route.operation === 'getPet' && style.deprecationHeaders
        ? { deprecation: '@1767225600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }
        : {}
    // Authentication §1-3: every operation, and every other path, needs the key; checked before anything else.
    const header = request.headers.authorization
    if (!stages.authorize(Array.isArray(header) ? header.join(', ') : header)) {
      return error(401, 'unauthenticated', 'Send Authorization: Bearer <API key>.', {
        'www-authenticate': 'Bearer',
        ...deprecation,
      })
    }
    const params = new URLSearchParams(queryAt === -1 ? '' : request.target.slice(queryAt + 1))
    switch (route.operation) {
      case 'none':
        return route.allow
          ? error(405, 'method_not_allowed', `Use ${route.allow}.`, { allow: route.allow })
          : error(404, 'no_route', 'No such resource.')
      case 'GET /store/orders':
        return style.orders === 'empty-list'
          ? json(200, [])
          : error(501, 'not_implemented', 'Orders are not served.')
      case 'listPets': {
        const query = stages.parseQuery(params)
        if ('refuse' in query) return error(style.badParameterStatus, 'bad_query', query.refuse)
        const self: Record<string, string> = style.selfLinks
          ? { 'content-location': request.target, link: `<${request.target}>; rel="self"` }
          : {}
        return json(200, stages.list(query.limit, query.status).map(stages.present), self)
      }
      case 'createPet': {
        if (request.body === undefined || request.body.length === 0)
          return error(400, 'bad_body', 'A NewPet JSON body is required.')
        if (request.body.length > maxBodyBytes) return error(413, 'too_large', 'Bodies are 1 MiB at most.')
        const text = stages.decodeBody(request.body)
        if (typeof text !== 'string') return error(400, 'bad_body', text.refuse)
        const pet = stages.parseNewPet(text)
        if ('refuse' in pet) return error(400, 'bad_body', pet.refuse)
        let created: PetRecord
        try {
          created = await stages.create(pet)
        } catch (refusal) {
          if (refusal instanceof Refused) return error(refusal.status, 'refused', refusal.message)
          throw refusal
        }
        const location = `/v1/pets/${created.id}`
        return json(201, stages.present(created), {
          location,
          ...(style.selfLinks ? { 'content-location': location } : {}),
        })
      }
      case 'getPet': {
        const id = stages.parsePetId(route.rawId)
        if (typeof id === 'object') return error(style.badParameterStatus, 'bad_id', id.refuse, deprecation)
        const pet = stages.find(id)
        return pet
          ? json(200, stages.present(pet), deprecation)
          : error(404, 'not_found', `No pet has id ${id}.`, deprecation)
      }
    }
  }
  const finished = async (request: ServiceRequest) => stages.finish(await answer(request), request)
  return style.etags ? withEtags(finished) : finished
}

/**
 * Conditional GETs (RFC 9110 §8.8.3, §13.1.2): every 200 to a GET carries a weak ETag of its body, and a
 * request whose If-None-Match names it (or `*`) gets 304 with no body, only then.
 */
function withEtags(
  answer: (request: ServiceRequest) => Promise<ServiceResponse>,
): (request: ServiceRequest) => Promise<ServiceResponse> {
  return async (request) => {
    const response = await answer(request)
    if (request.method !== 'GET' || response.status !== 200) return response
    // Weak (RFC 9110 §8.8.1): the adapter may send this body br-, gzip- or deflate-coded, which a strong
    // validator would have to tell apart; a weak one names the same JSON however it is coded.
    const etag = `W/"${createHash('sha256').update(response.body).digest('base64url').slice(0, 27)}"`
    const headers: Record<string, string> = { ...response.headers, etag, 'cache-control': 'no-cache' }
    const asked = request.headers['if-none-match']
    const tags = (Array.isArray(asked) ? asked.join(',') : (asked ?? '')).split(',').map((tag) => tag.trim())
    // Weak comparison for If-None-Match (§13.1.2): W/"x" matches "x".
    if (tags.some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag.slice(2))) {
      const { 'content-type': _, ...kept } = headers
      return { status: 304, headers: kept, body: Buffer.alloc(0) }
    }
    return { ...response, headers }
  }
}

function correctStages(style: ReferenceStyle, apiKey: string): Stages {
  const table = createPetTable(style)
  return {
    intercept: () => undefined,
    authorize(header) {
      // RFC 9110 §11.1 and §11.4: case-insensitive scheme, one or more SP, then the token, exactly.
      const match = /^bearer +([^ ]+)$/i.exec(header ?? '')
      return match?.[1] === apiKey
    },
    normalisePath: normaliseRfc3986,
    route(method, path) {
      const pet = /^\/v1\/pets\/([^/]+)$/.exec(path)
      if (path === '/v1/pets')
        return method === 'GET'
          ? { operation: 'listPets' }
          : method === 'POST'
            ? { operation: 'createPet' }
            : { operation: 'none', allow: 'GET, POST' }
      if (pet)
        return method === 'GET'
          ? { operation: 'getPet', rawId: pet[1] as string }
          : { operation: 'none', allow: 'GET' }
      if (path === '/v1/store/orders')
        return method === 'GET' ? { operation: 'GET /store/orders' } : { operation: 'none', allow: 'GET' }
      return { operation: 'none' }
    },
    decodeBody(bytes) {
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
      } catch {
        return { refuse: 'The body is not UTF-8 (RFC 8259 §8.1).' }
      }
    },
    parseQuery(params) {
      for (const name of new Set(params.keys()))
        if (params.getAll(name).length > 1) return { refuse: `Give ${name} once.` }
      const raw = params.get('limit')
      const status = params.get('status')
      let limit = defaultLimit
      if (raw !== null) {
        if (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100)
          return { refuse: 'limit is 1 to 100.' }
        limit = Number(raw)
      }
      if (status !== null && !statuses.includes(status))
        return { refuse: `status is one of ${statuses.join(', ')}.` }
      return status === null ? { limit } : { limit, status }
    },
    parseNewPet(text) {
      let value: unknown
      try {
        // int64 is 64 bits (Go's int64, Java's long): integers are read exactly, beyond 2^53 as bigints.
        value = parse(text, null, readNumber)
      } catch {
        return { refuse: 'The body is not JSON.' }
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return { refuse: 'A NewPet object.' }
      const { name, categoryId, status } = value as Record<string, unknown>
      if (typeof name !== 'string') return { refuse: 'name is a required string.' }
      if (!isLong(categoryId)) return { refuse: 'categoryId is a required 64-bit integer.' }
      if (status !== undefined && (typeof status !== 'string' || !statuses.includes(status)))
        return { refuse: `status is one of ${statuses.join(', ')}.` }
      return status === undefined ? { name, categoryId } : { name, categoryId, status }
    },
    parsePetId(raw) {
      const decoded = safeDecode(raw)
      const id = /^-?[0-9]+$/.test(decoded) ? readNumber(decoded) : undefined
      return isLong(id) ? id : { refuse: 'petId is a 64-bit integer.' }
    },
    create: (pet) => table.insert(pet),
    find: (id) => table.find(id),
    list: (limit, status) => table.list(limit, status),
    present: (pet) =>
      style.extraFields ? { ...pet, shelter: 'north', links: { self: `/v1/pets/${pet.id}` } } : { ...pet },
    encode: (text) => ({ contentType: style.contentType, bytes: Buffer.from(text, 'utf8') }),
    finish: (response) => response,
  }
}

/** The pets of one server, in its own id scheme and order. */
function createPetTable(style: ReferenceStyle) {
  const byId = new Map<Long, PetRecord>()
  const inOrder: PetRecord[] = []
  let next = 1_000_000_000_000
  let seed = 0x2f6b_1d3a
  // A small deterministic generator (mulberry32) so every start holds the same seeded pets.
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const newId = () => {
    for (;;) {
      let id: Long
      if (style.ids === 'random') id = 1 + Math.floor(random() * (Number.MAX_SAFE_INTEGER - 1_000_000))
      else if (style.ids === 'random-63-bit') {
        // 63 random bits: any positive int64, nearly always beyond 2^53 (a bigint).
        const bits = (BigInt(Math.floor(random() * 2 ** 31)) << 32n) | BigInt(Math.floor(random() * 2 ** 32))
        id = bits === 0n ? 1 : bits <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(bits) : bits
      } else {
        next += 1 + Math.floor(random() * 97)
        id = next
      }
      if (!byId.has(id)) return id
    }
  }
  const compare = (a: PetRecord, b: PetRecord) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
  const insert = (pet: { name: string; categoryId: Long; status?: string }): PetRecord => {
    const status = pet.status ?? style.defaultStatus
    const record: PetRecord = {
      id: newId(),
      name: pet.name,
      categoryId: pet.categoryId,
      ...(status ? { status } : {}),
    }
    byId.set(record.id, record)
    if (style.order === 'newest-first') inOrder.unshift(record)
    else inOrder.splice(sortedIndex(inOrder, record, compare), 0, record)
    return record
  }
  const names = ['Zoë', 'Лайка', '小白', 'Ꭰ', 'مِشمِش', 'שוקו', 'Pépé 🐾', '𝔉𝔦𝔡𝔬', 'Ño', 'Ψ']
  // Planes 0 to 16: BMP, SMP (Linear B, emoji), SIP and TIP (CJK extensions), SSP (a tag), SPUA-A and -B.
  const planes = ['Ωmega', '𐀀 Linear B 🦜', '𠀀𪜀', '𰀀', 'tag\u{E0041}', '\u{F0000}', '\u{100000}\u{10FFFD}']
  for (let index = 0; index < style.seededPets; index++) {
    insert({
      name: style.seededExtremes
        ? `${planes[index % planes.length]} ${index}`
        : `${names[index % names.length]} ${index}`,
      categoryId: style.seededExtremes ? 2n ** 60n + BigInt(index) * 1_000_003n : 1 + (index % 12),
      status: statuses[index % statuses.length] as string,
    })
  }
  return {
    insert,
    find: (id: Long) => byId.get(id),
    list(limit: number, status?: string) {
      const page: PetRecord[] = []
      for (const pet of inOrder) {
        if (page.length >= limit) break
        if (status === undefined || pet.status === status) page.push(pet)
      }
      return page
    },
  }
}

function sortedIndex<T>(items: T[], item: T, compare: (a: T, b: T) => number): number {
  let low = 0
  let high = items.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (compare(items[middle] as T, item) <= 0) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * RFC 3986 §6.2.2.2 decodes percent-encoded unreserved characters (letters, digits, `-._~`) and §5.2.4
 * removes dot segments; anything else (an encoded `/`, case) is left as sent, so it routes nowhere.
 * @example normaliseRfc3986('/%761/./pets') // '/v1/pets'
 */
export function normaliseRfc3986(rawPath: string): string {
  const decoded = rawPath.replace(/%([0-9A-Fa-f]{2})/g, (whole, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16))
    return /[A-Za-z0-9\-._~]/.test(char) ? char : whole.toUpperCase()
  })
  const output: string[] = []
  const segments = decoded.split('/')
  segments.forEach((segment, index) => {
    if (segment === '.') {
      if (index === segments.length - 1) output.push('')
    } else if (segment === '..') {
      if (output.length > 1) output.pop()
      if (index === segments.length - 1) output.push('')
    } else output.push(segment)
  })
  return output.join('/')
}

/** lossless-json's number reader: exact integers (bigints beyond 2^53), doubles otherwise. */
function readNumber(text: string): Long {
  if (!isInteger(text)) return Number(text)
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : BigInt(text)
}

function isLong(value: unknown): value is Long {
  if (typeof value === 'bigint') return value >= -(2n ** 63n) && value < 2n ** 63n
  return typeof value === 'number' && Number.isSafeInteger(value)
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

function enumValues(): string[] {
  const schema = contract.document.components?.schemas?.PetStatus as { enum?: unknown[] } | undefined
  return (schema?.enum ?? []).map(String)
}
