import { describe, expect, it } from 'vitest'
import { parseExactJson } from '../../contract/exact-json.ts'
import { contract } from '../../contract/index.ts'
import {
  awkwardBodies,
  fieldValues,
  nearMissPathIds,
  nearMissQueries,
  pathSpellings,
  validBodies,
  validSchemaValues,
} from './generated-values.ts'
import { isValidBearer, nearMissCredentials } from './near-miss-credentials.ts'
import { negativeBodies } from './negative-bodies.ts'

describe('valid values generated from the contract', () => {
  it('gives only bodies the contract accepts for createPet', () => {
    const bodies = validBodies('createPet')
    expect(bodies.length).toBeGreaterThan(30)
    for (const { label, value } of bodies)
      expect(contract.validateRequestBody('createPet', value).ok, label).toBe(true)
  })

  it('covers every PetStatus value and a body without the optional status', () => {
    const labels = validBodies().map((body) => body.label)
    expect(labels).toEqual(
      expect.arrayContaining([
        'status = "available"',
        'status = "pending"',
        'status = "sold"',
        'without status (optional)',
      ]),
    )
  })

  it('covers the 32-bit boundaries, one beyond each, and int64 beyond 2^53 up to both of its bounds for categoryId', () => {
    const values = fieldValues('createPet').categoryId?.map((v) => v.value)
    expect(values).toEqual(
      expect.arrayContaining([
        0,
        -1,
        2147483647,
        2147483648,
        -2147483648,
        -2147483649,
        Number.MAX_SAFE_INTEGER,
        -Number.MAX_SAFE_INTEGER,
        9007199254740993n,
        10n ** 18n,
        9223372036854775807n,
        -9223372036854775808n,
      ]),
    )
    // The contract says int64: every value is one, and those a double cannot hold are sent exactly.
    expect(
      values?.every((value) => contract.validateSchema('NewPet', { name: 'x', categoryId: value }).ok),
    ).toBe(true)
  })

  it('says both ways out when a server refuses a valid int64 beyond 2^53', () => {
    const beyond = fieldValues('createPet').categoryId?.filter((v) => typeof v.value === 'bigint') ?? []
    expect(beyond).toHaveLength(4)
    for (const value of beyond) expect(value.ifRefused).toMatch(/store it exactly.*minimum\/maximum/)
  })

  it('covers empty, very long, non-BMP and HTML/SQL/shell-significant names', () => {
    const names = fieldValues('createPet').name?.map((v) => v.value as string) ?? []
    expect(names).toContain('')
    expect(names.some((name) => name.length >= 10_000)).toBe(true)
    expect(names.some((name) => [...name].some((char) => (char.codePointAt(0) ?? 0) > 0xffff))).toBe(true)
    expect(names.some((name) => name.includes('<script>'))).toBe(true)
    expect(names.some((name) => name.includes("');"))).toBe(true)
    expect(names.some((name) => name.includes('$('))).toBe(true)
  })

  it('keeps integer values inside a schema’s own bounds, and adds the bounds', () => {
    const values = validSchemaValues({ type: 'integer', minimum: 1, maximum: 100 }).map((v) => v.value)
    expect(values).toEqual(expect.arrayContaining([1, 100]))
    expect(values.every((value) => (value as number) >= 1 && (value as number) <= 100)).toBe(true)
  })

  it('leaves out the empty string where a schema sets minLength', () => {
    const values = validSchemaValues({ type: 'string', minLength: 1 }).map((v) => v.value)
    expect(values).not.toContain('')
  })
})

describe('near-miss invalid values', () => {
  it('gives listPets query strings the contract refuses: enum case and whitespace, empty values', () => {
    const queries = nearMissQueries('listPets').map((q) => q.query)
    expect(queries).toEqual(
      expect.arrayContaining([
        'limit=',
        'status=',
        'status=SOLD',
        'status=Sold',
        'status=sold%20',
        'limit=1abc',
      ]),
    )
    // Values a mainstream validator coerces to a valid integer would fail correct servers: left out.
    expect(queries).not.toContain('limit=0x1')
    expect(queries).not.toContain('limit=%201')
    for (const query of queries) {
      const [name, raw] = query.split('=') as [string, string]
      expect(contract.parseParameter('listPets', 'query', name, decodeURIComponent(raw)).ok, query).toBe(
        false,
      )
    }
  })

  it('marks zero and negative ids as ints no pet plausibly has, and bad spellings as invalid', () => {
    const byId = new Map(nearMissPathIds('getPet').map((id) => [id.pathId, id.expect]))
    expect(byId.get('0')).toBe('no-such-pet')
    expect(byId.get('-1')).toBe('no-such-pet')
    expect(byId.get('1abc')).toBe('invalid')
    expect(byId.has('%201')).toBe(false)
    expect(byId.has('0x1')).toBe(false)
    expect(byId.get('9007199254740993')).toBe('no-such-pet')
    expect(byId.get('9223372036854775807')).toBe('no-such-pet')
    expect(byId.get('-9223372036854775808')).toBe('no-such-pet')
    expect(byId.get('9223372036854775808')).toBe('invalid')
  })
})

describe('near-miss credentials', () => {
  it('never includes the valid header in any spelling RFC 9110 allows', () => {
    for (const key of ['animal-store-key', 'K', 'abc123', 'UPPER-lower']) {
      for (const { label, authorization } of nearMissCredentials(key)) {
        expect(authorization, label).not.toBe(`Bearer ${key}`)
        if (authorization !== null) expect(isValidBearer(authorization, key), label).toBe(false)
      }
    }
  })

  it('includes the key in another case, one character off, and an empty bearer token', () => {
    const headers = nearMissCredentials('Secret-key').map((c) => c.authorization)
    expect(headers).toEqual(
      expect.arrayContaining([
        'Bearer SECRET-KEY',
        'Bearer secret-key',
        'Bearer Secret-keyx',
        'Bearer Secret-ke',
        'Bearer ',
      ]),
    )
  })

  it('sends no two headers a server receives identically once outer spaces are stripped', () => {
    const received = nearMissCredentials('k3y').map(
      (c) => c.authorization?.replace(/^[ \t]+|[ \t]+$/g, '') ?? null,
    )
    expect(new Set(received).size).toBe(received.length)
  })

  it('reads the scheme case-insensitively and multiple spaces as valid, a tab separator as not', () => {
    expect(isValidBearer('bearer k', 'k')).toBe(true)
    expect(isValidBearer('BEARER   k ', 'k')).toBe(true)
    expect(isValidBearer('Bearer\tk', 'k')).toBe(false)
    expect(isValidBearer('Bearer k\u00a0', 'k')).toBe(false)
  })
})

describe('path spellings', () => {
  it('spells /v1/pets with a trailing slash, dot segments, encoded letters and case variants', () => {
    const paths = pathSpellings('/v1/pets').map((s) => s.path)
    expect(paths).toEqual(
      expect.arrayContaining(['/v1/pets/', '/v1//pets', '/v1/./pets', '/v1/%70ets', '/V1/PETS', '/v1/Pets']),
    )
    expect(paths).not.toContain('/v1/pets')
  })

  it('marks only RFC 3986 equivalents as the same URI', () => {
    const same = new Map(pathSpellings('/v1/pets').map((s) => [s.path, s.sameUri]))
    expect(same.get('/v1/%70ets')).toBe(true)
    expect(same.get('/v1/x/../pets')).toBe(true)
    expect(same.get('/v1/pets/')).toBe(false)
    expect(same.get('/V1/PETS')).toBe(false)
  })
})

describe('body near-misses and awkward bodies', () => {
  const refused = (body: string) => {
    try {
      return !contract.validateRequestBody('createPet', parseExactJson(body)).ok
    } catch {
      return true // not one JSON text
    }
  }

  it('spells each required key in another case with the real key absent, as Go’s decoder would still match it', () => {
    const bodies = negativeBodies('createPet').filter((b) => b.fault === 'body keys in another letter case')
    expect(bodies.map((b) => Object.keys(JSON.parse(b.body))[0])).toEqual(
      expect.arrayContaining(['NAME', 'Name', 'CATEGORYID', 'categoryid', 'CategoryId']),
    )
    for (const { body } of bodies) expect(refused(body), body).toBe(true)
  })

  it('tries every status value in another case, with a space around it, and the empty string', () => {
    const statuses = negativeBodies('createPet')
      .filter((b) => b.fault === 'body /status')
      .map((b) => JSON.parse(b.body).status)
    expect(statuses).toEqual(expect.arrayContaining(['AVAILABLE', 'Pending', 'sold ', ' available', '']))
  })

  it('sends a valid object followed by trailing data, two objects in a row, and a key twice with two wrong values', () => {
    const bodies = negativeBodies('createPet')
    const text = (needle: string) => bodies.find((b) => b.description.includes(needle))?.body ?? ''
    expect(text('trailing data')).toMatch(/^\{.*\} x$/)
    expect(text('two JSON objects')).toMatch(/^\{.*\}\{.*\}$/)
    expect(text('categoryId twice')).toMatch(/"categoryId":"1","categoryId":1\.5\}$/)
    for (const { description, body } of bodies) expect(refused(body), description).toBe(true)
  })

  it('gives valid bodies with lone surrogates, NUL and combining marks escaped as JSON sends them, and a key twice with one value', () => {
    const bodies = awkwardBodies('createPet', 'run1')
    expect(bodies.map((b) => b.body)).toEqual(
      expect.arrayContaining([
        '{"name":"run1 \\ud800","categoryId":1,"status":"available"}',
        '{"name":"run1 \\udc00","categoryId":1,"status":"available"}',
        '{"name":"run1 a\\u0000b","categoryId":1,"status":"available"}',
        '{"name":"run1 twice","name":"run1 twice","categoryId":1,"status":"available"}',
      ]),
    )
    for (const { label, body } of bodies) expect(refused(body), label).toBe(false)
  })
})
