// Reference servers with one defect a real backend shipped each, and the finding each must produce.
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json'
import { contract } from '../../contract/index.ts'
import type { RuleId } from '../judging/findings.ts'
import { serverA, serverB, startReference } from './reference-servers.ts'
import {
  type Defect,
  type Long,
  normaliseRfc3986,
  type PetRecord,
  type ReferenceStyle,
  Refused,
  type ServiceRequest,
  type ServiceResponse,
} from './reference-service.ts'
import type { StartedServer } from './serve-reference.ts'

/** A reference server with exactly one defect a real backend shipped, and the finding it must produce. */
export interface RealisticBrokenServer {
  name: string
  /** One sentence: what a real backend did wrong. */
  defect: string
  expectedFinding: { rule: RuleId; operation: 'listPets' | 'createPet' | 'getPet' | 'GET /store/orders' }
  /** How many findings the one defect may show as (3 unless its damage must be traced to its root). */
  findingsAtMost?: number
  start(): Promise<StartedServer>
}

const fourByte = /[\u{10000}-\u{10FFFF}]/u

function broken(
  name: string,
  base: ReferenceStyle,
  defect: string,
  expectedFinding: RealisticBrokenServer['expectedFinding'],
  inject: Defect,
  findingsAtMost?: number,
): RealisticBrokenServer {
  return {
    name,
    defect,
    expectedFinding,
    ...(findingsAtMost === undefined ? {} : { findingsAtMost }),
    start: () => startReference(base, inject),
  }
}

/** Replaces how names are stored. */
const storingName =
  (change: (name: string) => string): Defect =>
  (correct) => ({
    create: (pet) => correct.create({ ...pet, name: change(pet.name) }),
  })

/** The bearer token as a lax parser reads it: the second space-separated word. */
const secondWord = (header: string | undefined) => header?.split(' ')[1]

/** The Authorization header as one string (Node gives an array for a repeated one). */
const authorizationOf = (request: ServiceRequest) => {
  const header = request.headers.authorization
  return Array.isArray(header) ? header.join(', ') : header
}

/** A JSON response as a layer in front of the service writes it. */
const jsonResponse = (
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): ServiceResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(value)),
})

/** Replaces the headers of every answer, as a layer that writes them on its own would. */
const answeringWith =
  (headersOf: (response: ServiceResponse, request: ServiceRequest) => Record<string, string>): Defect =>
  (correct) => ({
    finish: (response, request) => {
      const finished = correct.finish(response, request)
      return { ...finished, headers: headersOf(finished, request) }
    },
  })

/** Rewrites the NewPet JSON before the correct parser reads it (lossless: int64s beyond 2^53 stay exact). */
const rewritingNewPet =
  (change: (pet: Record<string, unknown>) => Record<string, unknown>): Defect =>
  (correct) => ({
    parseNewPet: (text) => {
      let value: unknown
      try {
        value = parseLossless(text)
      } catch {
        return correct.parseNewPet(text)
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return correct.parseNewPet(text)
      return correct.parseNewPet(stringifyLossless(change(value as Record<string, unknown>)) ?? text)
    },
  })

/** Rewrites listPets' query parameters before the correct parser reads them. */
const rewritingQuery =
  (change: (params: URLSearchParams) => void): Defect =>
  (correct) => ({
    parseQuery: (params) => {
      change(params)
      return correct.parseQuery(params)
    },
  })

/** Replaces getPet's Deprecation or Sunset header wherever the server sends it. */
const getPetHeader =
  (name: 'deprecation' | 'sunset', value: string): Defect =>
  () => ({
    finish: (response) =>
      response.headers[name] === undefined
        ? response
        : { ...response, headers: { ...response.headers, [name]: value } },
  })

/** categoryId written with a fraction, e.g. `"categoryId":1.5`. */
const fractionalCategoryId = /"categoryId"\s*:\s*(-?\d+)\.\d+([eE][+-]?\d+)?/

/**
 * The JSON a Pet (or a list of them) is written as when its class hierarchy names the subclass in a
 * `status` property of its own, before the fields: `{"status":"SoldPet",…,"status":"sold"}`. Integers
 * stay exact (lossless); any other body is left as it is.
 */
function typeIdFirst(text: string): string {
  let value: unknown
  try {
    value = parseLossless(text)
  } catch {
    return text
  }
  const written = (item: unknown): string => {
    const json = stringifyLossless(item) ?? 'null'
    const status = (item as { status?: unknown } | null)?.status
    if (typeof item !== 'object' || item === null || !('id' in item) || typeof status !== 'string')
      return json
    return `{"status":${JSON.stringify(`${status.charAt(0).toUpperCase()}${status.slice(1)}Pet`)},${json.slice(1)}`
  }
  return Array.isArray(value) ? `[${value.map(written).join(',')}]` : written(value)
}

const petStatuses = (() => {
  const schema = contract.document.components?.schemas?.PetStatus as { enum?: unknown[] } | undefined
  return (schema?.enum ?? []).map(String)
})()

/**
 * Realistic single-defect servers: each breaks one promise of the contract or the service description
 * (cited per entry), in a way the suite's first version did not look for. A survivor is a gap in the suite.
 */
/**
 * A schemaless store behind a handler that validates nothing but presence: a `name` of another JSON type
 * (a number, a boolean, an object, null) is stored and served as it was sent. Every pet it stores that way
 * is the run's own, so its id goes to `stored` when given.
 */
export function nameStoredAsSent(stored?: Long[]): RealisticBrokenServer {
  return broken(
    'a name of another type stored as sent',
    serverB,
    'An Express handler checks only that `name` is present and saves req.body into MongoDB as it came, so `"name":123` is accepted with a 201, stored as a number and served as one by every read.',
    { rule: 'invalid-accepted', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => {
        let sent: unknown
        try {
          sent = parseLossless(text)
        } catch {
          return correct.parseNewPet(text)
        }
        const name = (sent as { name?: unknown } | null)?.name
        if (typeof sent !== 'object' || sent === null || !('name' in sent) || typeof name === 'string')
          return correct.parseNewPet(text)
        const parsed = correct.parseNewPet(
          stringifyLossless({ ...(sent as object), name: 'as sent' }) ?? text,
        )
        // The record keeps the sent value, whatever its type: the store has no schema.
        return 'refuse' in parsed ? parsed : { ...parsed, name: name as string }
      },
      create: async (pet) => {
        const created = await correct.create(pet)
        if (typeof pet.name !== 'string') stored?.push(created.id)
        return created
      },
    }),
  )
}

export const realisticBrokenServers: RealisticBrokenServer[] = [
  // NewPet.name is a string with no maxLength: every string must come back as sent.
  broken(
    'names cut at 255 characters',
    serverB,
    'The name column is VARCHAR(255) and the driver silently truncates longer names.',
    { rule: 'changed-value', operation: 'createPet' },
    storingName((name) => name.slice(0, 255)),
  ),
  broken(
    'list cuts names at 1,000 characters',
    serverB,
    'The list endpoint maps pets to a summary DTO that truncates names to 1,000 characters; get and create do not.',
    { rule: 'changed-value', operation: 'listPets' },
    (correct) => ({
      list: (limit, status) =>
        correct.list(limit, status).map((pet) => ({ ...pet, name: pet.name.slice(0, 1000) })),
    }),
  ),
  broken(
    'request bodies read as Latin-1',
    serverB,
    'The body parser decodes request bytes as ISO-8859-1 (a servlet default), so every non-ASCII name is stored as mojibake.',
    { rule: 'changed-value', operation: 'createPet' },
    () => ({ decodeBody: (bytes) => bytes.toString('latin1') }),
  ),
  broken(
    'MySQL utf8mb3 column refuses emoji with a 500',
    serverB,
    'The names column is MySQL utf8 (3-byte); a name with a character outside the BMP fails the INSERT and surfaces as a 500.',
    { rule: 'server-error', operation: 'createPet' },
    (correct) => ({
      create: (pet) => {
        if (fourByte.test(pet.name))
          throw new Error("Incorrect string value: '\\xF0\\x9F...' for column 'name'")
        return correct.create(pet)
      },
    }),
  ),
  broken(
    'names HTML-escaped on store',
    serverA,
    'An anti-XSS filter HTML-escapes every string before it is stored, so "<b>" comes back as "&lt;b&gt;".',
    { rule: 'changed-value', operation: 'createPet' },
    storingName((name) =>
      name.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;'),
    ),
  ),
  broken(
    'names trimmed',
    serverB,
    'The model binder trims whitespace around every string, so "  Rex  " is stored as "Rex".',
    { rule: 'changed-value', operation: 'createPet' },
    storingName((name) => name.trim()),
  ),
  broken(
    'names NFC-normalised',
    serverA,
    'The service normalises names to Unicode NFC, so a decomposed "e + U+0301" comes back precomposed.',
    { rule: 'changed-value', operation: 'createPet' },
    storingName((name) => name.normalize('NFC')),
  ),
  // NewPet.categoryId is int64: int32 values and beyond must round-trip.
  broken(
    'categoryId stored as int32',
    serverA,
    'categoryId is an int32 column, so 2147483648 wraps to -2147483648.',
    { rule: 'changed-value', operation: 'createPet' },
    (correct) => ({
      create: (pet) =>
        correct.create({ ...pet, categoryId: Number(BigInt.asIntN(32, BigInt(pet.categoryId))) }),
    }),
  ),
  broken(
    'negative categoryId refused',
    serverB,
    'categoryId is an unsigned column and the validator refuses negative values with 400, though int64 allows them.',
    { rule: 'valid-value-refused', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => {
        const pet = correct.parseNewPet(text)
        return 'refuse' in pet || pet.categoryId >= 0 ? pet : { refuse: 'categoryId must be positive.' }
      },
    }),
  ),
  broken(
    'empty name refused',
    serverB,
    'An Express handler opens with `if (!req.body.name) return res.status(400).json(…)`: "" is falsy, so a valid empty name gets 400, though NewPet sets no minLength.',
    { rule: 'valid-value-refused', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => {
        const pet = correct.parseNewPet(text)
        return 'refuse' in pet || pet.name !== '' ? pet : { refuse: 'name is required.' }
      },
    }),
    1,
  ),
  broken(
    'categoryId 0 refused as missing',
    serverA,
    'A strict deserialiser marks categoryId `required` and reads the zero value as absent (go-playground/validator), so categoryId 0 gets 400.',
    { rule: 'valid-value-refused', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => {
        const pet = correct.parseNewPet(text)
        return 'refuse' in pet || pet.categoryId !== 0
          ? pet
          : { refuse: "Key: 'NewPet.CategoryId' failed on the 'required' tag" }
      },
    }),
  ),
  broken(
    'NUL in a name is a 500',
    serverB,
    'PostgreSQL text cannot hold U+0000; the INSERT fails ("invalid byte sequence for encoding UTF8: 0x00") and surfaces as a 500.',
    { rule: 'server-error', operation: 'createPet' },
    (correct) => ({
      create: (pet) => {
        if (pet.name.includes('\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00')
        return correct.create(pet)
      },
    }),
  ),
  // listPets' status is a PetStatus enum: `available`, `pending`, `sold` exactly; limit an integer 1-100.
  broken(
    'status filter case-insensitive',
    serverA,
    'The status filter lower-cases its input before checking it, so status=SOLD is served as sold.',
    { rule: 'invalid-not-refused', operation: 'listPets' },
    rewritingQuery((params) => {
      const status = params.get('status')
      if (status !== null) params.set('status', status.toLowerCase())
    }),
  ),
  broken(
    'empty query values read as absent',
    serverB,
    'A truthiness check (`if (req.query.limit)`) treats limit= and status= as not given, serving the default page.',
    { rule: 'invalid-not-refused', operation: 'listPets' },
    rewritingQuery((params) => {
      for (const name of [...params.keys()]) if (params.get(name) === '') params.delete(name)
    }),
  ),
  // limit is an integer (listPets, Query parameters); "1abc" and "1.5" are not integers. (Number()'s " 1" and
  // "0x1" are left alone: common validators coerce them too, so the suite does not send them.)
  broken(
    'limit parsed with parseInt()',
    serverA,
    'limit is parsed with JavaScript parseInt(), which reads "1abc" and "1.5" as 1.',
    { rule: 'invalid-not-refused', operation: 'listPets' },
    rewritingQuery((params) => {
      const raw = params.get('limit')
      if (raw !== null && raw !== '' && !Number.isNaN(Number.parseInt(raw, 10)))
        params.set('limit', String(Number.parseInt(raw, 10)))
    }),
  ),
  // Pet.id is "unique identifier assigned by the service on creation"; nothing says names are unique.
  broken(
    'names must be unique (409)',
    serverB,
    'A unique index on name answers a second pet with the same name with 409 Conflict, a rule the contract does not have.',
    { rule: 'undeclared-status', operation: 'createPet' },
    (correct) => {
      const names = new Set<string>()
      return {
        create: (pet) => {
          if (names.has(pet.name)) throw new Refused(409, `A pet named ${pet.name} exists.`)
          names.add(pet.name)
          return correct.create(pet)
        },
      }
    },
  ),
  broken(
    'identical bodies deduplicated',
    serverB,
    'Create is an upsert on (name, categoryId, status): an identical second body returns the first pet and its id.',
    { rule: 'duplicate-id', operation: 'createPet' },
    (correct) => {
      const seen = new Map<string, PetRecord>()
      return {
        create: async (pet) => {
          const key = JSON.stringify([pet.name, pet.categoryId, pet.status ?? null])
          const earlier = seen.get(key)
          if (earlier) return earlier
          const created = await correct.create(pet)
          seen.set(key, created)
          return created
        },
      }
    },
  ),
  broken(
    'list cache never invalidated',
    serverB,
    'List pages are cached per query and not invalidated on create, so a new pet is missing from a page that is not full.',
    { rule: 'lost-write', operation: 'listPets' },
    (correct) => {
      const cache = new Map<string, PetRecord[]>()
      return {
        list: (limit, status) => {
          const key = `${limit} ${status}`
          const page = cache.get(key) ?? correct.list(limit, status)
          cache.set(key, page)
          return page
        },
      }
    },
  ),
  broken(
    'pets evicted after 64 creates',
    serverB,
    'The store is an LRU cache in front of nothing: only the 64 most recently created pets survive.',
    { rule: 'lost-write', operation: 'getPet' },
    (correct) => {
      const recent: Long[] = []
      const evicted = new Set<Long>()
      return {
        create: async (pet) => {
          const created = await correct.create(pet)
          recent.push(created.id)
          if (recent.length > 64) evicted.add(recent.shift() as Long)
          return created
        },
        find: (id) => (evicted.has(id) ? undefined : correct.find(id)),
        list: (limit, status) =>
          correct
            .list(limit + evicted.size, status)
            .filter((pet) => !evicted.has(pet.id))
            .slice(0, limit),
      }
    },
  ),
  broken(
    'racing creates share an id',
    serverB,
    'Ids come from read-max-then-insert across an await, so two concurrent creates get the same id and one overwrites the other.',
    { rule: 'duplicate-id', operation: 'createPet' },
    (correct) => {
      const own = new Map<Long, PetRecord>()
      let last = 9_000_000_000
      return {
        create: async (pet) => {
          const id = last + 1
          await new Promise((resolve) => setImmediate(resolve))
          last = id
          const record: PetRecord = { ...pet, id }
          own.set(id, record)
          return record
        },
        find: (id) => own.get(id) ?? correct.find(id),
        list: (limit, status) =>
          [
            ...[...own.values()].filter((pet) => status === undefined || pet.status === status),
            ...correct.list(limit, status),
          ].slice(0, limit),
      }
    },
  ),
  // Authentication §1-3: `Authorization: Bearer <API_KEY>`; a missing or invalid key gets 401.
  broken(
    'a prefix of the key is accepted',
    serverA,
    'The key check is `apiKey.startsWith(token)`, so any non-empty prefix of the key works.',
    { rule: 'auth', operation: 'createPet' },
    (correct) => ({
      authorize: (header) => {
        const token = /^bearer +(\S+)$/i.exec(header ?? '')?.[1]
        return token ? 'Proof-Key-7f3a9c'.startsWith(token) : correct.authorize(header)
      },
    }),
  ),
  broken(
    'the key compared case-insensitively',
    serverB,
    'The key is compared after lower-casing both sides, so the key in another letter case works.',
    { rule: 'auth', operation: 'listPets' },
    () => ({
      authorize: (header) =>
        secondWord(header)?.toLowerCase() === 'proof-key-7f3a9c' && /^bearer /i.test(header ?? ''),
    }),
  ),
  broken(
    'scheme sliced off and the rest trimmed',
    serverA,
    'The key is read as `header.slice(7).trim()`, so "Bearer: <key>", a tab or a no-break space around the key all pass.',
    { rule: 'auth', operation: 'listPets' },
    () => ({ authorize: (header) => header !== undefined && header.slice(7).trim() === 'Proof-Key-7f3a9c' }),
  ),
  broken(
    'an empty bearer token skips the check',
    serverB,
    'The check is `if (token && token !== key) deny`, so "Bearer" with no token at all is let through.',
    { rule: 'auth', operation: 'listPets' },
    (correct) => ({
      authorize: (header) => {
        if (header === undefined) return false
        const token = secondWord(header)
        if (token && token !== 'Proof-Key-7f3a9c') return false
        return /^bearer/i.test(header) || correct.authorize(header)
      },
    }),
  ),
  broken(
    '/store/orders/ with a trailing slash is open',
    serverA,
    'A catch-all route mounted before the auth middleware serves "/v1/store/orders/" (trailing slash) without a key.',
    { rule: 'auth', operation: 'GET /store/orders' },
    () => ({
      intercept: (request) =>
        request.target.split('?')[0] === '/v1/store/orders/'
          ? { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('[]') }
          : undefined,
    }),
  ),
  broken(
    'case-insensitive router behind a case-sensitive auth prefix',
    serverB,
    'Auth middleware is mounted on "/v1/pets" exactly, but the router matches paths case-insensitively, so "/V1/PETS" is served without a key.',
    { rule: 'auth', operation: 'listPets' },
    () => ({
      intercept: (request) => {
        const path = request.target.split('?')[0] ?? ''
        // The side door: the router lower-cases the path, the auth check never saw it.
        if (path !== path.toLowerCase() && path.toLowerCase().startsWith('/v1/pets')) {
          request.target = request.target.toLowerCase()
          request.headers = { ...request.headers, authorization: 'Bearer Proof-Key-7f3a9c' }
        }
        return undefined
      },
    }),
  ),
  broken(
    'auth checks the raw path, the router the decoded one',
    serverA,
    'The auth filter matches the raw path against "/v1/", while the router decodes it, so "/%761/pets" reaches the list without a key.',
    { rule: 'auth', operation: 'listPets' },
    () => ({
      intercept: (request) => {
        const path = request.target.split('?')[0] ?? ''
        if (!path.startsWith('/v1/') && normaliseRfc3986(path).startsWith('/v1/'))
          request.headers = { ...request.headers, authorization: 'Bearer Proof-Key-7f3a9c' }
        return undefined
      },
    }),
  ),
  // getPet's petId is an int64: zero and negatives are ids no pet has, so 404 (never a 5xx).
  broken(
    'a negative pet id is a 500',
    serverA,
    'petId is cast to an unsigned integer; a negative id throws in the data layer and surfaces as a 500.',
    { rule: 'server-error', operation: 'getPet' },
    (correct) => ({
      parsePetId: (raw) => {
        const id = correct.parsePetId(raw)
        if (typeof id === 'number' && id < 0) throw new Error(`cannot convert ${id} to uint64`)
        return id
      },
    }),
  ),
  // A Pet is the same animal however it is fetched: the 201's status is the pet's status.
  broken(
    'default status shown but not stored',
    serverB,
    'The create response DTO fills status with "available" when absent, but the stored pet has none, so GET shows another pet.',
    { rule: 'changed-value', operation: 'getPet' },
    (correct) => ({
      create: async (pet) => {
        const created = await correct.create(pet)
        return created.status === undefined ? { ...created, status: 'available' } : created
      },
    }),
  ),
  broken(
    'status filter applied after the limit',
    serverB,
    'The query takes `limit` rows first and filters by status in memory, so matching pets go missing from a short page.',
    { rule: 'lost-write', operation: 'listPets' },
    (correct) => ({
      list: (limit, status) =>
        correct.list(limit).filter((pet) => status === undefined || pet.status === status),
    }),
  ),
  // RFC 8259 §8.1: JSON exchanged between systems is UTF-8.
  broken(
    'responses encoded as Latin-1',
    serverA,
    'Responses are written with the platform charset ISO-8859-1 (and say so), so non-Latin-1 characters become "?" and é a lone byte.',
    { rule: 'changed-value', operation: 'createPet' },
    () => ({
      encode: (text) => ({
        contentType: 'application/json; charset=ISO-8859-1',
        bytes: Buffer.from(
          [...text].map((char) => ((char.codePointAt(0) ?? 0) > 0xff ? '?' : char)).join(''),
          'latin1',
        ),
      }),
    }),
  ),
  // ---- Defect classes found in other stacks' issue trackers, one per layer a request crosses.
  // Authentication: the contract's 401 for a missing key (Authentication §3).
  broken(
    'a missing key answered 403',
    serverA,
    'FastAPI\'s HTTPBearer() answers a request without Authorization with 403 {"detail":"Not authenticated"} (fastapi/fastapi#2026, #10177; DRF does the same when its first authentication class has no authenticate_header).',
    { rule: 'auth', operation: 'listPets' },
    () => ({
      intercept: (request) =>
        request.headers.authorization === undefined
          ? jsonResponse(403, { detail: 'Not authenticated' })
          : undefined,
    }),
  ),
  broken(
    'the query validated before the key',
    serverA,
    'The list route lists its query validator before requireAuth (Express route middleware run in order), so GET /pets?limit=0 without a key gets 400, not 401.',
    { rule: 'auth', operation: 'listPets' },
    (correct) => ({
      intercept: (request) => {
        const [path, query = ''] = request.target.split('?')
        if (request.method !== 'GET' || path !== '/v1/pets' || correct.authorize(authorizationOf(request)))
          return undefined
        const parsed = correct.parseQuery(new URLSearchParams(query))
        return 'refuse' in parsed
          ? jsonResponse(400, { code: 'bad_query', message: parsed.refuse, status: 400 })
          : undefined
      },
    }),
  ),
  broken(
    'the pet loaded before the key',
    serverB,
    "Express runs app.param('petId', loadPet) before the route's requireAuth, on a store with serial ids: an id no pet has answers 404 without a key, pet 1 (the first row) 401, so a caller without a key learns which pets exist (WFC 204).",
    { rule: 'auth', operation: 'getPet' },
    (correct) => {
      // Serial ids: the first row is there from the start, so the keyless reads of id 1 get their 401.
      const first: PetRecord = { id: 1, name: 'Rex', categoryId: 1, status: 'available' }
      const find = (id: Long) => (String(id) === '1' ? first : correct.find(id))
      return {
        find,
        intercept: (request) => {
          const raw = /^\/v1\/pets\/(\d+)$/.exec(request.target.split('?')[0] ?? '')?.[1]
          if (request.method !== 'GET' || raw === undefined) return undefined
          const id = correct.parsePetId(raw)
          return typeof id === 'object' || find(id)
            ? undefined
            : jsonResponse(404, { code: 'not_found', message: `No pet has id ${raw}.`, status: 404 })
        },
      }
    },
  ),
  broken(
    'a gateway answers 401 with its HTML page',
    serverB,
    'nginx auth_request checks the key in front of the service and answers a refusal with nginx\'s own HTML "401 Authorization Required" page, not the contract\'s Error JSON.',
    { rule: 'content-type', operation: 'listPets' },
    (correct) => ({
      intercept: (request) =>
        correct.authorize(authorizationOf(request))
          ? undefined
          : {
              status: 401,
              headers: { 'content-type': 'text/html', 'www-authenticate': 'Bearer' },
              body: Buffer.from(
                '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>\r\n<center><h1>401 Authorization Required</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
              ),
            },
    }),
  ),
  // Parsing and validation of the body: NewPet is name (string), categoryId (int64), status (PetStatus, not null).
  broken(
    'unknown fields refused',
    serverB,
    'Jackson\'s FAIL_ON_UNKNOWN_PROPERTIES (on by default) refuses a body with a field NewPet does not name ("Unrecognized field \\"id\\"") with 400, though NewPet allows other fields.',
    { rule: 'wrong-status', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => {
        const pet = correct.parseNewPet(text)
        if ('refuse' in pet) return pet
        const unknown = Object.keys(parseLossless(text) as object).find(
          (key) => !['name', 'categoryId', 'status'].includes(key),
        )
        return unknown === undefined
          ? pet
          : { refuse: `Unrecognized field "${unknown}" (class NewPet), not marked as ignorable` }
      },
    }),
  ),
  broken(
    'a fractional categoryId truncated',
    serverA,
    "Jackson's ACCEPT_FLOAT_AS_INT (on by default) reads categoryId 1.5 into a long as 1 (jackson-databind#664), so a non-integer is stored instead of refused.",
    { rule: 'invalid-accepted', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => correct.parseNewPet(text.replace(fractionalCategoryId, '"categoryId":$1')),
    }),
  ),
  broken(
    'a null status read as absent',
    serverB,
    'The model declares `status: Optional[PetStatus] = None` (Pydantic; a Go *string does the same), so "status": null passes as "not given" though PetStatus is a string enum.',
    { rule: 'invalid-accepted', operation: 'createPet' },
    rewritingNewPet((pet) => {
      if (pet.status !== null) return pet
      const { status: _, ...rest } = pet
      return rest
    }),
  ),
  nameStoredAsSent(),
  broken(
    'a status with trailing spaces matches',
    serverB,
    'The status filter is checked by a lookup in a MySQL table whose PAD SPACE collation ignores trailing spaces, so status=sold%20 is served as sold.',
    { rule: 'invalid-not-refused', operation: 'listPets' },
    rewritingQuery((params) => {
      const status = params.get('status')
      if (status !== null) params.set('status', status.replace(/ +$/, ''))
    }),
  ),
  broken(
    'a limit above 100 clamped',
    serverA,
    "limit is clamped to the maximum instead of refused, as DRF's LimitOffsetPagination max_limit and Spring Data's maxPageSize do, so limit=101 gets 100 pets and a 200.",
    { rule: 'invalid-not-refused', operation: 'listPets' },
    rewritingQuery((params) => {
      const limit = params.get('limit')
      if (limit !== null && /^[0-9]+$/.test(limit) && Number(limit) > 100) params.set('limit', '100')
    }),
  ),
  broken(
    'limit handed to SQLite unchecked',
    serverB,
    'limit goes straight into SQLite\'s LIMIT, where a negative value means "no limit" and 0 an empty page (SQLite\'s SELECT documentation), so limit=-1 lists every pet with 200.',
    { rule: 'invalid-not-refused', operation: 'listPets' },
    (correct) => ({
      parseQuery: (params) => {
        const limit = params.get('limit')
        if (limit === null || !/^-?[0-9]+$/.test(limit) || Number(limit) > 0)
          return correct.parseQuery(params)
        params.delete('limit')
        const rest = correct.parseQuery(params)
        return 'refuse' in rest ? rest : { ...rest, limit: Number(limit) < 0 ? Number.POSITIVE_INFINITY : 0 }
      },
    }),
  ),
  broken(
    'a WAF refuses names that look like SQL or HTML',
    serverA,
    'A WAF in front (ModSecurity with the OWASP Core Rule Set, rules 942100/941100) blocks bodies holding "DROP TABLE" or "<script>" with its 403 page, though such names are valid strings (coreruleset/coreruleset#4342).',
    { rule: 'undeclared-status', operation: 'createPet' },
    () => ({
      intercept: (request) =>
        request.method === 'POST' && /drop\s+table|<script/i.test(request.body?.toString('utf8') ?? '')
          ? {
              status: 403,
              headers: { 'content-type': 'text/html' },
              body: Buffer.from(
                '<html><head><title>403 Forbidden</title></head><body>Forbidden</body></html>',
              ),
            }
          : undefined,
    }),
  ),
  broken(
    'the pet is written before its status is checked',
    serverB,
    'The handler INSERTs the row from name and categoryId, then checks status against the enum and answers 400 without rolling back (validation after the write), so every body refused for its status leaves a pet behind.',
    { rule: 'refusal-side-effect', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => {
        const parsed = correct.parseNewPet(text)
        if (!('refuse' in parsed)) return parsed
        let value: unknown
        try {
          value = parseLossless(text)
        } catch {
          return parsed
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return parsed
        const { status: _, ...rest } = value as Record<string, unknown>
        const written = correct.parseNewPet(stringifyLossless(rest) ?? '')
        if (!('refuse' in written)) void correct.create(written)
        return parsed
      },
    }),
    1,
  ),
  // Storage: a created pet is served from then on (service description: add, then retrieve by id).
  broken(
    'each worker process keeps its own store',
    serverB,
    'Pets live in a dict inside the app, which runs as two gunicorn workers behind one port: a pet created on one worker is unknown to the other (requests alternate between them).',
    { rule: 'lost-write', operation: 'getPet' },
    (correct) => {
      let requests = 0
      let worker = 0
      const owner = new Map<Long, number>()
      const mine = (pet: PetRecord) => (owner.get(pet.id) ?? worker) === worker
      return {
        intercept: () => {
          worker = requests++ % 2
          return undefined
        },
        create: async (pet) => {
          const serving = worker
          const created = await correct.create(pet)
          owner.set(created.id, serving)
          return created
        },
        find: (id) => {
          const pet = correct.find(id)
          return pet && mine(pet) ? pet : undefined
        },
        list: (limit, status) =>
          correct
            .list(limit + owner.size, status)
            .filter(mine)
            .slice(0, limit),
      }
    },
  ),
  broken(
    'reads come from a lagging replica',
    serverA,
    "Reads go to a read replica that applies writes 300 ms late (asynchronous PostgreSQL streaming replication, DynamoDB's default eventually consistent reads), so a pet read right after its 201 is 404.",
    { rule: 'lost-write', operation: 'getPet' },
    (correct) => {
      const createdAt = new Map<Long, number>()
      const lagging = (pet: PetRecord) => Date.now() - (createdAt.get(pet.id) ?? 0) < 300
      return {
        create: async (pet) => {
          const created = await correct.create(pet)
          createdAt.set(created.id, Date.now())
          return created
        },
        find: (id) => {
          const pet = correct.find(id)
          return pet && !lagging(pet) ? pet : undefined
        },
        list: (limit, status) =>
          correct
            .list(limit + createdAt.size, status)
            .filter((pet) => !lagging(pet))
            .slice(0, limit),
      }
    },
  ),
  // Time: ids unique whatever the timing.
  broken(
    'ids taken from the clock',
    serverB,
    'Ids are Date.now() (milliseconds), so creates within the same millisecond get the same id and the later one overwrites the earlier.',
    { rule: 'duplicate-id', operation: 'createPet' },
    (correct) => {
      const own = new Map<Long, PetRecord>()
      return {
        create: (pet) => {
          const record: PetRecord = { ...pet, id: Date.now() }
          own.set(record.id, record)
          return record
        },
        find: (id) => own.get(id) ?? correct.find(id),
        list: (limit, status) =>
          [
            ...[...own.values()].reverse().filter((pet) => status === undefined || pet.status === status),
            ...correct.list(limit, status),
          ].slice(0, limit),
      }
    },
  ),
  // getPet's Deprecation (RFC 9745, `@` + seconds) and Sunset (RFC 8594 HTTP-date, 2030-12-05).
  broken(
    'Sunset computed at local midnight',
    serverA,
    'The Sunset date is built as midnight of 2030-12-05 in the server\'s local zone (Europe/Helsinki, UTC+2) and then formatted in GMT: "Wed, 04 Dec 2030 22:00:00 GMT", the day before.',
    { rule: 'header', operation: 'getPet' },
    getPetHeader('sunset', new Date(Date.UTC(2030, 11, 5) - 2 * 3_600_000).toUTCString()),
  ),
  broken(
    'Sunset written with -0000 for GMT',
    serverA,
    'Python\'s email.utils.formatdate() without usegmt=True writes "Thu, 05 Dec 2030 00:00:00 -0000", which is not an HTTP-date (RFC 9110 §5.6.7 wants "GMT").',
    { rule: 'header', operation: 'getPet' },
    getPetHeader('sunset', 'Thu, 05 Dec 2030 00:00:00 -0000'),
  ),
  broken(
    'Deprecation in the draft form "true"',
    serverA,
    'Deprecation is sent as "true", the form of the pre-RFC drafts (draft-ietf-httpapi-deprecation-header, and what Prism adds), not RFC 9745\'s "@" + seconds.',
    { rule: 'header', operation: 'getPet' },
    getPetHeader('deprecation', 'true'),
  ),
  broken(
    'Deprecation dated in milliseconds',
    serverA,
    'Deprecation is written from Date.now()-style milliseconds ("@1767225600000"): it fits the pattern, but dates the deprecation in the year 57970, long after the Sunset.',
    { rule: 'header', operation: 'getPet' },
    getPetHeader('deprecation', '@1767225600000'),
  ),
  // Serialisation: a Pet is name, categoryId, status (a PetStatus string when present) and id, as JSON.
  broken(
    'an absent status written as null',
    serverB,
    'FastAPI\'s response_model writes an unset Optional field as null (fastapi/fastapi#1050; ethyca/fides#1169), so a pet created without status comes back with "status": null.',
    { rule: 'body-schema', operation: 'createPet' },
    (correct) => ({ present: (pet) => ({ ...correct.present(pet), status: pet.status ?? null }) }),
  ),
  broken(
    'categoryId 0 left out of responses',
    serverA,
    'The Go struct tags categoryId `json:"categoryId,omitempty"`, and encoding/json omits a zero int, so a pet with categoryId 0 comes back without it.',
    { rule: 'changed-value', operation: 'createPet' },
    (correct) => ({
      present: (pet) => {
        const { categoryId, ...rest } = correct.present(pet)
        return categoryId === 0 ? rest : { ...rest, categoryId }
      },
    }),
  ),
  broken(
    'status written as its enum ordinal',
    serverB,
    'Json.NET and System.Text.Json write an enum as its number unless a StringEnumConverter is registered, so status "sold" comes back as 2.',
    { rule: 'changed-value', operation: 'createPet' },
    (correct) => ({
      present: (pet) => {
        const presented = correct.present(pet)
        return pet.status === undefined
          ? presented
          : { ...presented, status: petStatuses.indexOf(pet.status) }
      },
    }),
  ),
  broken(
    'field names exported in PascalCase',
    serverA,
    'The Go struct has no json tags, so encoding/json writes its field names ("Id", "Name", "CategoryId", "Status"); reading still works, as Go matches keys case-insensitively.',
    { rule: 'changed-value', operation: 'createPet' },
    (correct) => ({
      present: (pet) =>
        Object.fromEntries(
          Object.entries(correct.present(pet)).map(([key, value]) => [
            `${key.charAt(0).toUpperCase()}${key.slice(1)}`,
            value,
          ]),
        ),
    }),
  ),
  broken(
    'type id written beside the field of the same name',
    serverA,
    'The Pet classes are polymorphic by status (`@JsonTypeInfo(use = NAME, include = As.PROPERTY, property = "status")`, a subclass per status) and keep their status field, so Jackson writes the type id, then the field (jackson-databind#1633, #2022): `{"status":"SoldPet",…,"status":"sold"}`. JSON.parse keeps the last value; a client that keeps the first reads status "SoldPet", one that refuses repeated names reads nothing.',
    { rule: 'duplicate-member', operation: 'listPets' },
    (correct) => ({ encode: (text) => correct.encode(typeIdFirst(text)) }),
  ),
  broken(
    'JSON bodies start with a byte-order mark',
    serverB,
    "Responses are written through a StreamWriter made with .NET's Encoding.UTF8, which emits a BOM (aspnet/Mvc#577, unosquare/embedio#400); RFC 8259 §8.1 forbids one and JSON.parse refuses it.",
    { rule: 'body-schema', operation: 'listPets' },
    (correct) => ({
      encode: (text) => {
        const { contentType, bytes } = correct.encode(text)
        return { contentType, bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]) }
      },
    }),
  ),
  broken(
    "JSON bodies prefixed with )]}'",
    serverA,
    "Every JSON body starts with the anti-XSSI line )]}' as Gerrit's REST API and AngularJS-style backends write it, so a client's JSON parser refuses it.",
    { rule: 'body-schema', operation: 'listPets' },
    (correct) => ({
      encode: (text) => {
        const { contentType, bytes } = correct.encode(text)
        return { contentType, bytes: Buffer.concat([Buffer.from(")]}'\n"), bytes]) }
      },
    }),
  ),
  // Transport: RFC 9112 §6 framing.
  broken(
    'Content-Length counts characters',
    serverA,
    "Content-Length is set from the string's length, not its UTF-8 bytes (acs-aem-commons#2425, HttpServer.jl#32), so a body with non-ASCII names is cut short and its last bytes land after the response.",
    { rule: 'no-response', operation: 'listPets' },
    () => ({
      finish: (response) => ({
        ...response,
        headers: { ...response.headers, 'content-length': String(response.body.toString('utf8').length) },
      }),
    }),
  ),
  broken(
    'Content-Length sent beside chunked',
    serverB,
    'A middleware re-chunks the body but keeps the upstream Content-Length, so responses carry both (RFC 9112 §6.1 forbids it; nodejs/node#7136, openstreetmap/operations#910): Node and llhttp clients refuse them as possible request smuggling.',
    { rule: 'no-response', operation: 'listPets' },
    () => ({
      finish: (response) => ({
        ...response,
        headers: {
          ...response.headers,
          'transfer-encoding': 'chunked',
          'content-length': String(response.body.length),
        },
      }),
    }),
  ),
  // Caching: an answer depends on the key (Authorization), so no shared cache may serve it across keys.
  broken(
    'a cache serves authorised pages to keyless requests',
    serverB,
    'nginx proxy_cache with `proxy_cache_bypass $http_authorization` but no matching proxy_no_cache: requests with a key skip the lookup, yet their 200s are stored, and a request without a key gets the last authorised page.',
    { rule: 'auth', operation: 'listPets' },
    () => {
      const cache = new Map<string, ServiceResponse>()
      return {
        intercept: (request) =>
          request.method === 'GET' && request.headers.authorization === undefined
            ? cache.get(request.target)
            : undefined,
        finish: (response, request) => {
          if (
            request.method === 'GET' &&
            request.headers.authorization !== undefined &&
            response.status === 200
          )
            cache.set(request.target, response)
          return response
        },
      }
    },
  ),
  broken(
    'a cache serves a 401 to clients with the key',
    serverA,
    'A CDN caches error responses by URL (negative caching, `proxy_cache_valid any 1m`) with no `Vary: Authorization` or `Cache-Control: private`, so once a keyless request got 401, clients with the key get that 401 too.',
    { rule: 'wrong-status', operation: 'listPets' },
    () => {
      const cache = new Map<string, ServiceResponse>()
      return {
        intercept: (request) => (request.method === 'GET' ? cache.get(request.target) : undefined),
        finish: (response, request) => {
          if (request.method === 'GET' && response.status === 401) cache.set(request.target, response)
          return response
        },
      }
    },
  ),
  broken(
    'a stored lone surrogate breaks every read of it',
    serverB,
    'A Python service stores the name as parsed (json.loads keeps a lone surrogate), then writes its answers as UTF-8, which cannot encode one: the create answers 500 with the pet stored, and every page or read that holds it answers 500 too. One defect, at the create.',
    { rule: 'server-error', operation: 'createPet' },
    (correct) => ({
      present: (pet) => {
        if (/\p{Cs}/u.test(pet.name))
          throw new Error("'utf-8' codec can't encode character '\\ud800': surrogates not allowed")
        return correct.present(pet)
      },
    }),
    1,
  ),
  // The Errors section asks for the Error body; the suite's policy asks that it show nothing of the server.
  broken(
    'an error handler sends the stack trace',
    serverB,
    "An Express error handler answers `{code, message: err.stack, status}`, so body-parser's SyntaxError for a malformed body comes back a valid 400 Error whose message is the stack, with the server's paths and line numbers.",
    { rule: 'leaked-internals', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => {
        const parsed = correct.parseNewPet(text)
        if (!('refuse' in parsed) || parsed.refuse !== 'The body is not JSON.') return parsed
        return {
          refuse: [
            'SyntaxError: Unexpected end of JSON input',
            '    at JSON.parse (<anonymous>)',
            '    at parse (/srv/pets-api/node_modules/body-parser/lib/types/json.js:92:19)',
            '    at /srv/pets-api/node_modules/body-parser/lib/read.js:128:18',
          ].join('\n'),
        }
      },
    }),
  ),
  // The contract declares GET and POST on /pets: a DELETE there is an operation nobody declared.
  broken(
    'DELETE /pets empties the store',
    serverB,
    'An Express router keeps a test-only `.delete(clearAll)` on `/pets` (for resetting between integration tests) behind the same key middleware: with the key, DELETE /pets answers 204 and every pet is gone.',
    { rule: 'undeclared-write', operation: 'listPets' },
    (correct) => {
      let cleared = false
      const since = new Set<Long>()
      const kept = (pet: PetRecord | undefined) => (pet && (!cleared || since.has(pet.id)) ? pet : undefined)
      return {
        intercept: (request) => {
          const path = normaliseRfc3986(request.target.split('?')[0] ?? '')
          if (
            request.method !== 'DELETE' ||
            path !== '/v1/pets' ||
            !correct.authorize(authorizationOf(request))
          )
            return undefined
          cleared = true
          since.clear()
          return { status: 204, headers: {}, body: Buffer.alloc(0) }
        },
        create: async (pet) => {
          const created = await correct.create(pet)
          if (cleared) since.add(created.id)
          return created
        },
        find: (id) => kept(correct.find(id)),
        list: (limit, status) =>
          correct
            .list(Number.MAX_SAFE_INTEGER, status)
            .filter((pet) => kept(pet) !== undefined)
            .slice(0, limit),
      }
    },
  ),
  // HEAD is GET without its content (RFC 9110 §9.3.2): the same operation, which needs the key.
  broken(
    'HEAD is let through without a key',
    serverA,
    "Spring Security's chain permits `HEAD /**` for the load balancer's health checks, and Spring MVC answers HEAD with the GET handler: HEAD /pets/{id} answers 200 without a key for a pet that exists, 404 for one that does not.",
    { rule: 'auth', operation: 'listPets' },
    (correct) => ({
      intercept: (request) => {
        if (request.method !== 'HEAD') return undefined
        const path = normaliseRfc3986(request.target.split('?')[0] ?? '')
        const route = correct.route('GET', path)
        if (route.operation === 'none') return undefined
        const id = route.operation === 'getPet' ? correct.parsePetId(route.rawId) : undefined
        const found = id === undefined || (typeof id !== 'object' && correct.find(id) !== undefined)
        return jsonResponse(
          found ? 200 : 404,
          found ? [] : { code: 'not_found', message: 'No such pet.', status: 404 },
        )
      },
    }),
  ),
  // Every operation requires the key (Authentication §1); an undeclared one is still reached without it.
  broken(
    'an admin DELETE route without the key middleware',
    serverA,
    'A Flask blueprint for support staff adds `DELETE /pets/<id>` and is registered before the `before_request` hook that checks the key, so anyone can delete any pet: 204 without a key.',
    { rule: 'undeclared-write', operation: 'getPet' },
    (correct) => {
      const deleted = new Set<Long>()
      return {
        intercept: (request) => {
          const path = normaliseRfc3986(request.target.split('?')[0] ?? '')
          const route = correct.route('GET', path)
          if (request.method !== 'DELETE' || route.operation !== 'getPet') return undefined
          const id = correct.parsePetId(route.rawId)
          if (typeof id === 'object' || deleted.has(id) || !correct.find(id))
            return jsonResponse(404, { code: 'not_found', message: 'No such pet.', status: 404 })
          deleted.add(id)
          return { status: 204, headers: {}, body: Buffer.alloc(0) }
        },
        find: (id) => (deleted.has(id) ? undefined : correct.find(id)),
        list: (limit, status) =>
          correct
            .list(Number.MAX_SAFE_INTEGER, status)
            .filter((pet) => !deleted.has(pet.id))
            .slice(0, limit),
      }
    },
  ),
  // Requests as real clients send them (RFC 9110 §11.1, §8.3.1, §12.5.1): valid, so each must be accepted.
  broken(
    'bearer scheme matched case-sensitively',
    serverB,
    "The key middleware checks `header.startsWith('Bearer ')`, so an OAuth client that sends its token response's token_type as it came (`bearer <key>`) gets 401, though the scheme is case-insensitive.",
    { rule: 'valid-form-refused', operation: 'listPets' },
    (correct) => ({
      authorize: (header) => header?.startsWith('Bearer ') === true && correct.authorize(header),
    }),
  ),
  broken(
    'Content-Type compared with application/json exactly',
    serverA,
    "A guard answers 415 unless `req.headers['content-type'] === 'application/json'`, so `application/json; charset=utf-8` (.NET's PostAsJsonAsync) and `application/json;charset=UTF-8` (Spring before 5.2) are refused.",
    { rule: 'valid-form-refused', operation: 'createPet' },
    (correct) => ({
      intercept: (request) =>
        request.method === 'POST' &&
        request.body !== undefined &&
        request.body.length > 0 &&
        correct.authorize(authorizationOf(request)) &&
        request.headers['content-type'] !== 'application/json'
          ? jsonResponse(415, {
              code: 'unsupported_media_type',
              message: 'Send application/json.',
              status: 415,
            })
          : undefined,
    }),
  ),
  broken(
    "axios's Accept list answered 406",
    serverB,
    "A content-negotiation guard answers 406 unless Accept is absent, exactly `application/json` or `*/*`, so axios's default `application/json, text/plain, */*` is refused.",
    { rule: 'valid-form-refused', operation: 'listPets' },
    (correct) => ({
      intercept: (request) => {
        const accept = request.headers.accept
        return accept === undefined ||
          accept === 'application/json' ||
          accept === '*/*' ||
          !correct.authorize(authorizationOf(request))
          ? undefined
          : jsonResponse(406, { code: 'not_acceptable', message: 'Accept application/json.', status: 406 })
      },
    }),
  ),
  broken(
    "curl's User-Agent blocked as a bot",
    serverA,
    "A WAF rule meant for scrapers answers 403 to any User-Agent starting `curl/`, so the commands in the API's own docs fail (a policy finding: the RFCs let a server refuse it).",
    { rule: 'client-quirk-refused', operation: 'listPets' },
    () => ({
      intercept: (request) =>
        String(request.headers['user-agent'] ?? '').startsWith('curl/')
          ? jsonResponse(403, {
              code: 'forbidden',
              message: 'Automated clients are not allowed.',
              status: 403,
            })
          : undefined,
    }),
  ),
  // Headers that name a URL or a set of methods are tried (RFC 9110 §10.2.2, §10.2.1), and a 401's challenge
  // is held to the declared bearer scheme (RFC 9110 §11.6.1, RFC 6750 §3).
  broken(
    'Location names /pets/undefined',
    serverB,
    "The create handler builds Location from the request body's `id` (a NewPet has none) instead of the stored pet's: every 201 says `Location: /v1/pets/undefined`, which answers 422.",
    { rule: 'broken-header-promise', operation: 'createPet' },
    answeringWith((response) =>
      response.status === 201 ? { ...response.headers, location: '/v1/pets/undefined' } : response.headers,
    ),
  ),
  broken(
    'Location without the /v1 prefix',
    serverA,
    'The service is mounted under /v1 by the gateway but writes Location from its own router path, `/pets/{id}`, which the gateway routes nowhere: 404.',
    { rule: 'broken-header-promise', operation: 'createPet' },
    answeringWith((response) =>
      response.status === 201 && response.headers.location
        ? { ...response.headers, location: response.headers.location.replace(/^\/v1/, '') }
        : response.headers,
    ),
  ),
  broken(
    'paging links name the internal host',
    serverA,
    'Behind the gateway the service builds its paging links from its own Host header, so every page says `Link: <http://pets-api.internal:8080/v1/pets?…>; rel="next"`, a host no client can reach.',
    { rule: 'broken-header-promise', operation: 'listPets' },
    answeringWith((response, request) =>
      request.method === 'GET' && request.target.startsWith('/v1/pets?') && response.status === 200
        ? {
            ...response.headers,
            link: `<http://pets-api.internal:8080${request.target}&page=2>; rel="next"`,
          }
        : response.headers,
    ),
  ),
  broken(
    'Allow lists methods the path refuses',
    serverA,
    "A hand-written router's 405 handler sends one constant `Allow: GET, HEAD, POST, OPTIONS` on every path, though HEAD and OPTIONS reach no handler and /pets/{id} has no POST: each of them answers 405.",
    { rule: 'broken-header-promise', operation: 'listPets' },
    answeringWith((response) =>
      response.status === 405 ? { ...response.headers, allow: 'GET, HEAD, POST, OPTIONS' } : response.headers,
    ),
  ),
  broken(
    'a Basic challenge on every 401',
    serverA,
    'Spring Security\'s default `httpBasic()` entry point answers every refusal with `WWW-Authenticate: Basic realm="Realm"`, so a browser asks for a user name and password, though the API takes a bearer key.',
    { rule: 'wrong-challenge', operation: 'listPets' },
    answeringWith((response) =>
      response.status === 401
        ? { ...response.headers, 'www-authenticate': 'Basic realm="Realm"' }
        : response.headers,
    ),
  ),
  broken(
    'a 401 without a challenge',
    serverB,
    "An Express error handler answers express-jwt's UnauthorizedError with `res.status(401).json(...)` alone: no WWW-Authenticate, which RFC 9110 §11.6.1 requires on every 401.",
    { rule: 'wrong-challenge', operation: 'listPets' },
    answeringWith((response) => {
      const { 'www-authenticate': _, ...headers } = response.headers
      return headers
    }),
  ),
]
