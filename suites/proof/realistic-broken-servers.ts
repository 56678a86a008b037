import type { RuleId } from '../findings.ts'
import { serverA, serverB, startReference } from './reference-servers.ts'
import {
  type Defect,
  type Long,
  normaliseRfc3986,
  type PetRecord,
  type ReferenceStyle,
  Refused,
} from './reference-service.ts'
import type { StartedServer } from './serve-reference.ts'

/** A reference server with exactly one defect a real backend shipped, and the finding it must produce. */
export interface RealisticBrokenServer {
  name: string
  /** One sentence: what a real backend did wrong. */
  defect: string
  expectedFinding: { rule: RuleId; operation: 'listPets' | 'createPet' | 'getPet' | 'GET /store/orders' }
  start(): Promise<StartedServer>
}

const fourByte = /[\u{10000}-\u{10FFFF}]/u

function broken(
  name: string,
  base: ReferenceStyle,
  defect: string,
  expectedFinding: RealisticBrokenServer['expectedFinding'],
  inject: Defect,
): RealisticBrokenServer {
  return { name, defect, expectedFinding, start: () => startReference(base, inject) }
}

/** Replaces how names are stored. */
const storingName =
  (change: (name: string) => string): Defect =>
  (correct) => ({
    create: (pet) => correct.create({ ...pet, name: change(pet.name) }),
  })

/** The bearer token as a lax parser reads it: the second space-separated word. */
const secondWord = (header: string | undefined) => header?.split(' ')[1]

/**
 * Realistic single-defect servers: each breaks one promise of the contract or the service description
 * (cited per entry), in a way the suite's first version did not look for. A survivor is a gap in the suite.
 */
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
    { rule: 'wrong-status', operation: 'createPet' },
    (correct) => ({
      parseNewPet: (text) => {
        const pet = correct.parseNewPet(text)
        return 'refuse' in pet || pet.categoryId >= 0 ? pet : { refuse: 'categoryId must be positive.' }
      },
    }),
  ),
  broken(
    'categoryId 0 refused as missing',
    serverA,
    'A strict deserialiser marks categoryId `required` and reads the zero value as absent (go-playground/validator), so categoryId 0 gets 400.',
    { rule: 'wrong-status', operation: 'createPet' },
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
    { rule: 'invalid-accepted', operation: 'listPets' },
    (correct) => ({
      parseQuery: (params) => {
        const status = params.get('status')
        if (status !== null) params.set('status', status.toLowerCase())
        return correct.parseQuery(params)
      },
    }),
  ),
  broken(
    'empty query values read as absent',
    serverB,
    'A truthiness check (`if (req.query.limit)`) treats limit= and status= as not given, serving the default page.',
    { rule: 'invalid-accepted', operation: 'listPets' },
    (correct) => ({
      parseQuery: (params) => {
        for (const name of [...params.keys()]) if (params.get(name) === '') params.delete(name)
        return correct.parseQuery(params)
      },
    }),
  ),
  // limit is an integer (listPets, Query parameters); "1abc" and "1.5" are not integers. (Number()'s " 1" and
  // "0x1" are left alone: common validators coerce them too, so the suite does not send them.)
  broken(
    'limit parsed with parseInt()',
    serverA,
    'limit is parsed with JavaScript parseInt(), which reads "1abc" and "1.5" as 1.',
    { rule: 'invalid-accepted', operation: 'listPets' },
    (correct) => ({
      parseQuery: (params) => {
        const raw = params.get('limit')
        if (raw !== null && raw !== '' && !Number.isNaN(Number.parseInt(raw, 10)))
          params.set('limit', String(Number.parseInt(raw, 10)))
        return correct.parseQuery(params)
      },
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
    { rule: 'auth', operation: 'getPet' },
    () => ({
      authorize: (header) =>
        secondWord(header)?.toLowerCase() === 'proof-key-7f3a9c' && /^bearer /i.test(header ?? ''),
    }),
  ),
  broken(
    'scheme sliced off and the rest trimmed',
    serverA,
    'The key is read as `header.slice(7).trim()`, so "Bearer: <key>", a tab or a no-break space around the key all pass.',
    { rule: 'auth', operation: 'GET /store/orders' },
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
]
