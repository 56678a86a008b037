// The mock's behaviour as vitest cases written once, run against every target: in-process, MSW, socket.
import { beforeEach, describe, expect, it } from 'vitest'
import { contract } from '../../contract/index.ts'
import type { Pet } from '../../contract/types.ts'
import type { JournalEntry } from '../core/request-journal.ts'
import { seedPets } from '../core/seed-pets.ts'

/** The keys every target under test accepts. */
export const caseApiKeys: [string, string] = ['test-key', 'second-key']

/** What a target answered: the response only (the suite's `Exchange` pairs a request with its response). */
export interface CaseResponse {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  text: string
}

export interface CaseRequest {
  method?: string
  /** Path and query, e.g. `/v1/pets?limit=2` or `/__mock/health`. */
  path: string
  headers?: Record<string, string>
  body?: string
  /** The client gives up after this many ms (default: never), as a frontend's own timeout would. */
  timeoutMs?: number
}

/**
 * One way of reaching a mock: in-process, through MSW, or over a socket. `send` rejects where fetch would:
 * on a dropped connection, a body cut short, or the client's own timeout.
 */
export interface MockTarget {
  send(request: CaseRequest): Promise<CaseResponse>
}

/** The seed and count every target's mock is configured with: where an empty reset returns. */
export const caseSeed = 424242
export const caseSeededCount = 30
const seed = caseSeed
const seededCount = caseSeededCount
const auth = { authorization: `Bearer ${caseApiKeys[0]}` }
const json = { ...auth, 'content-type': 'application/json' }
const expectedSeed = [...seedPets(seed, seededCount)]

/**
 * The mock's behaviour, written once and run against every target (Hono's `runTest` pattern).
 * `fresh` must give a mock configured with `seed`/`pets` (so that an empty reset returns there) and no
 * other state, before every test.
 */
export function describeMockBehaviour(
  target: string,
  fresh: (seed: number, pets: number) => Promise<MockTarget>,
) {
  describe(`the mock, reached ${target}`, () => {
    let mock: MockTarget
    beforeEach(async () => {
      mock = await fresh(seed, seededCount)
    })

    const send = async (request: CaseRequest) => {
      const response = await mock.send(request)
      // Every error the mock sends is the contract's Error with status equal to the HTTP status.
      if (response.status >= 400) {
        const body = JSON.parse(response.text)
        expect(contract.validateSchema('Error', body), response.text).toMatchObject({ ok: true })
        expect(body.status).toBe(response.status)
        expect(response.headers['content-type']).toMatch(/^application\/json/)
      }
      return response
    }
    const body = (response: CaseResponse) => JSON.parse(response.text)
    const create = async (pet: object) => {
      const created = await send({
        method: 'POST',
        path: '/v1/pets',
        headers: json,
        body: JSON.stringify(pet),
      })
      expect(created.status, created.text).toBe(201)
      return body(created) as Pet
    }
    const sizeOf = async () => body(await send({ path: '/__mock/health' })).pets as number
    const resetWith = (
      text: string,
      headers: Record<string, string> = { 'content-type': 'application/json' },
    ) => send({ method: 'POST', path: '/__mock/reset', headers, body: text })
    const reset = async (options: object) => {
      const answer = await resetWith(JSON.stringify(options))
      expect(answer.status, answer.text).toBe(200)
      return body(answer)
    }
    const journal = async () => body(await send({ path: '/__mock/requests' })).requests as JournalEntry[]

    describe('listPets', () => {
      it('lists the seeded pets, 20 by default, in ascending id order, valid against Pets', async () => {
        const listed = await send({ path: '/v1/pets', headers: auth })
        expect(listed.status).toBe(200)
        const pets = body(listed) as Pet[]
        expect(contract.validateResponseBody('listPets', 200, pets)).toMatchObject({ ok: true })
        expect(pets).toHaveLength(20)
        expect(pets.map((pet) => pet.id)).toEqual([...pets.map((pet) => pet.id)].sort((a, b) => a - b))
      })

      it('serves the pets the seed generates, the same in every runtime', async () => {
        const pets = body(await send({ path: '/v1/pets?limit=100', headers: auth })) as Pet[]
        expect(pets.map(({ name, categoryId, status }) => ({ name, categoryId, status }))).toEqual(
          expectedSeed,
        )
      })

      it.each([1, 7, 100])('respects limit=%i', async (limit) => {
        const pets = body(await send({ path: `/v1/pets?limit=${limit}`, headers: auth }))
        expect(pets).toHaveLength(Math.min(limit, seededCount))
      })

      it.each(['0', '101', '-1', '1.5', 'ten', ''])(
        'refuses limit=%s with 400 invalid_parameter',
        async (limit) => {
          const refused = await send({ path: `/v1/pets?limit=${limit}`, headers: auth })
          expect(refused.status).toBe(400)
          expect(body(refused)).toMatchObject({ code: 'invalid_parameter' })
          expect(body(refused).message).toContain('limit')
        },
      )

      it('refuses a limit given twice', async () => {
        expect((await send({ path: '/v1/pets?limit=1&limit=2', headers: auth })).status).toBe(400)
      })

      it.each(['available', 'pending', 'sold'])('keeps only %s pets when filtered', async (status) => {
        const pets = body(await send({ path: `/v1/pets?status=${status}&limit=100`, headers: auth })) as Pet[]
        expect(pets.length).toBe(expectedSeed.filter((pet) => pet.status === status).length)
        expect(pets.every((pet) => pet.status === status)).toBe(true)
      })

      it('refuses an unknown status with 400 invalid_parameter naming the allowed values', async () => {
        const refused = await send({ path: '/v1/pets?status=lost', headers: auth })
        expect(refused.status).toBe(400)
        expect(body(refused).message).toContain('available, pending, sold')
      })
    })

    describe('authentication', () => {
      const paths: [string, string][] = [
        ['GET', '/v1/pets'],
        ['POST', '/v1/pets'],
        ['GET', '/v1/pets/1'],
        ['GET', '/v1/store/orders'],
        ['GET', '/v1/no-such-path'],
      ]
      it.each(paths)('answers %s %s without a key with 401 and a Bearer challenge', async (method, path) => {
        const refused = await send({ method, path })
        expect(refused.status).toBe(401)
        expect(body(refused).code).toBe('unauthorized')
        expect(refused.headers['www-authenticate']).toMatch(/^Bearer/)
      })

      it.each([
        ['a wrong key', 'Bearer wrong-key'],
        ['another scheme', `Basic ${caseApiKeys[0]}`],
        ['the key without a scheme', caseApiKeys[0]],
        ['the scheme without a key', 'Bearer '],
        ['the key followed by a no-break space (not HTTP whitespace)', `Bearer ${caseApiKeys[0]}\u00a0`],
      ])('answers %s with 401', async (_, authorization) => {
        expect((await send({ path: '/v1/pets', headers: { authorization } })).status).toBe(401)
      })

      it('accepts the scheme in any case and every configured key', async () => {
        expect(
          (await send({ path: '/v1/pets', headers: { authorization: `bEaReR ${caseApiKeys[0]}` } })).status,
        ).toBe(200)
        expect(
          (await send({ path: '/v1/pets', headers: { authorization: `Bearer ${caseApiKeys[1]}` } })).status,
        ).toBe(200)
      })

      it('refuses a repeated Authorization (joined with ", " as every adapter joins it) with 401, even with the right key', async () => {
        const refused = await send({
          path: '/v1/pets',
          headers: { authorization: `Bearer ${caseApiKeys[0]}, Bearer ${caseApiKeys[0]}` },
        })
        expect(refused.status).toBe(401)
        expect(body(refused).message).toContain('More than one Authorization')
      })

      it('checks the key before the body: an invalid body without a key is 401', async () => {
        const refused = await send({
          method: 'POST',
          path: '/v1/pets',
          headers: { 'content-type': 'application/json' },
          body: '{',
        })
        expect(refused.status).toBe(401)
      })
    })

    describe('createPet', () => {
      it('stores a pet, answers 201 with it and its Location, and serves it by id and in the filtered list', async () => {
        const created = await send({
          method: 'POST',
          path: '/v1/pets',
          headers: json,
          body: JSON.stringify({ name: 'Biscuit', categoryId: 4, status: 'pending' }),
        })
        expect(created.status).toBe(201)
        const pet = body(created) as Pet
        expect(contract.validateResponseBody('createPet', 201, pet)).toMatchObject({ ok: true })
        expect(pet).toMatchObject({ name: 'Biscuit', categoryId: 4, status: 'pending' })
        expect(created.headers.location).toBe(`/v1/pets/${pet.id}`)
        expect(body(await send({ path: `/v1/pets/${pet.id}`, headers: auth }))).toEqual(pet)
        const pending = body(
          await send({ path: '/v1/pets?status=pending&limit=100', headers: auth }),
        ) as Pet[]
        expect(pending).toContainEqual(pet)
      })

      it('gives every new pet a fresh, larger id and ignores a client-sent id', async () => {
        const first = await create({ name: 'A', categoryId: 1, id: 1 })
        const second = await create({ name: 'B', categoryId: 1, id: first.id })
        expect(first.id).toBeGreaterThan(seededCount)
        expect(second.id).toBeGreaterThan(first.id)
      })

      it.each(['9007199254740993', '1000000000000000000', '9223372036854775807', '-9223372036854775808'])(
        'stores categoryId %s exactly: the same digits in the 201, by id and in the list',
        async (digits) => {
          const created = await send({
            method: 'POST',
            path: '/v1/pets',
            headers: json,
            body: `{"name":"Exact int64","categoryId":${digits},"status":"sold"}`,
          })
          expect(created.status).toBe(201)
          expect(created.text).toContain(`"categoryId":${digits}`)
          const id = (body(created) as Pet).id
          expect((await send({ path: `/v1/pets/${id}`, headers: auth })).text).toContain(
            `"categoryId":${digits}`,
          )
          const listed = await send({ path: '/v1/pets?status=sold&limit=100', headers: auth })
          expect(listed.text).toContain(
            `{"id":${id},"name":"Exact int64","categoryId":${digits},"status":"sold"}`,
          )
        },
      )

      it('answers an id beyond 2^53 that is still an int64 with 404, like any unknown id', async () => {
        const missing = await send({ path: '/v1/pets/9223372036854775807', headers: auth })
        expect(missing.status).toBe(404)
        expect(body(missing).message).toContain('9223372036854775807')
      })

      it('keeps a pet without status without one (the contract states no default)', async () => {
        const pet = await create({ name: 'Nameless status', categoryId: 2 })
        expect(pet).not.toHaveProperty('status')
        expect(body(await send({ path: `/v1/pets/${pet.id}`, headers: auth }))).not.toHaveProperty('status')
      })

      it.each(['Ünïcödé 🐕‍🦺', '名前', 'O\'Brien "the dog"', '', ' '.repeat(3), 'x'.repeat(10_000)])(
        'round-trips the name %j',
        async (name) => {
          const pet = await create({ name, categoryId: 3 })
          expect(pet.name).toBe(name)
          expect(body(await send({ path: `/v1/pets/${pet.id}`, headers: auth })).name).toBe(name)
        },
      )

      const invalid: [string, string, Record<string, string>, string][] = [
        ['a missing name', '{"categoryId":1}', json, '/name'],
        ['a missing categoryId', '{"name":"Rex"}', json, '/categoryId'],
        ['a string categoryId', '{"name":"Rex","categoryId":"1"}', json, '/categoryId'],
        ['a fractional categoryId', '{"name":"Rex","categoryId":1.5}', json, '/categoryId'],
        [
          'a categoryId of 2^63, one beyond int64',
          '{"name":"Rex","categoryId":9223372036854775808}',
          json,
          '/categoryId',
        ],
        ['a categoryId below int64', '{"name":"Rex","categoryId":-9223372036854775809}', json, '/categoryId'],
        ['a categoryId of 2^64', '{"name":"Rex","categoryId":18446744073709551616}', json, '/categoryId'],
        ['a null name', '{"name":null,"categoryId":1}', json, '/name'],
        ['a numeric name', '{"name":7,"categoryId":1}', json, '/name'],
        ['a status outside the enum', '{"name":"Rex","categoryId":1,"status":"lost"}', json, '/status'],
        ['a null status', '{"name":"Rex","categoryId":1,"status":null}', json, '/status'],
        ['malformed JSON', '{"name":"Rex",', json, 'JSON'],
        ['an array', '[{"name":"Rex","categoryId":1}]', json, 'body'],
        ['a JSON string', '"Rex"', json, 'body'],
        ['JSON null', 'null', json, 'body'],
        ['an empty body', '', json, 'body'],
        [
          'a text/plain Content-Type',
          '{"name":"Rex","categoryId":1}',
          { ...auth, 'content-type': 'text/plain' },
          'Content-Type',
        ],
        ['no Content-Type', '{"name":"Rex","categoryId":1}', auth, 'Content-Type'],
      ]
      it.each(invalid)(
        'refuses %s with 400 invalid_body naming it, storing nothing',
        async (_, text, headers, named) => {
          const before = await sizeOf()
          const refused = await send({ method: 'POST', path: '/v1/pets', headers, body: text })
          expect(refused.status).toBe(400)
          expect(body(refused).code).toBe('invalid_body')
          expect(body(refused).message).toContain(named)
          expect(await sizeOf()).toBe(before)
        },
      )

      it('refuses a 3 MiB body with 413, storing nothing', async () => {
        const name = 'x'.repeat(3 * 1024 * 1024)
        const refused = await send({
          method: 'POST',
          path: '/v1/pets',
          headers: json,
          body: JSON.stringify({ name, categoryId: 1 }),
        })
        expect(refused.status).toBe(413)
        expect(body(refused).code).toBe('payload_too_large')
        expect(await sizeOf()).toBe(seededCount)
      })

      it('keeps all of 500 concurrent creates: 500 distinct ids, each retrievable', async () => {
        const pets = await Promise.all(
          Array.from({ length: 500 }, (_, index) => create({ name: `Pet ${index}`, categoryId: 1 })),
        )
        expect(new Set(pets.map((pet) => pet.id)).size).toBe(500)
        const fetched = await Promise.all(
          pets.map((pet) => send({ path: `/v1/pets/${pet.id}`, headers: auth })),
        )
        expect(fetched.map((response) => body(response))).toEqual(pets)
        expect(await sizeOf()).toBe(seededCount + 500)
      })
    })

    describe('getPet (deprecated)', () => {
      it('serves a seeded pet with Deprecation and the contract’s Sunset date', async () => {
        const found = await send({ path: '/v1/pets/1', headers: auth })
        expect(found.status).toBe(200)
        expect(contract.validateResponseBody('getPet', 200, body(found))).toMatchObject({ ok: true })
        expect(body(found)).toMatchObject({ id: 1, ...expectedSeed[0] })
        expect(found.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
        expect(
          contract.validateResponseHeader('getPet', 200, 'Deprecation', found.headers.deprecation ?? '').ok,
        ).toBe(true)
      })

      it.each([
        ['an unknown id', '999999'],
        ['id 0', '0'],
        ['a non-numeric id', 'abc'],
        ['a fractional id', '1.5'],
        ['an id beyond int64', '99999999999999999999999'],
      ])('answers %s with 404 not_found, still marked deprecated', async (_, id) => {
        const missing = await send({ path: `/v1/pets/${id}`, headers: auth })
        expect(missing.status).toBe(404)
        expect(body(missing).code).toBe('not_found')
        expect(missing.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
      })

      it('marks its 401 deprecated too', async () => {
        const refused = await send({ path: '/v1/pets/1' })
        expect(refused.status).toBe(401)
        expect(refused.headers.deprecation).toMatch(/^@\d+$/)
      })
    })

    describe('everything else', () => {
      it('answers GET /store/orders with 204 and no body once authenticated, and 401 without a key', async () => {
        const answer = await send({ path: '/v1/store/orders', headers: auth })
        expect(answer.status).toBe(204)
        expect(answer.text).toBe('')
        expect((await send({ path: '/v1/store/orders' })).status).toBe(401)
      })

      it('answers an unknown path with 404 and a wrong method with 405 and Allow', async () => {
        expect((await send({ path: '/v1/owners', headers: auth })).status).toBe(404)
        const wrong = await send({ method: 'DELETE', path: '/v1/pets', headers: auth })
        expect(wrong.status).toBe(405)
        expect(wrong.headers.allow).toBe('GET, POST')
      })

      it('forces a declared error with Prefer: code, in the Error shape, without touching the store', async () => {
        const forced = await send({ path: '/v1/pets/1', headers: { ...auth, prefer: 'code=404' } })
        expect(forced.status).toBe(404)
        expect(forced.headers['preference-applied']).toBe('code=404')
        const failedCreate = await send({
          method: 'POST',
          path: '/v1/pets',
          headers: { ...json, prefer: 'code=400' },
          body: '{"name":"A","categoryId":1}',
        })
        expect(failedCreate.status).toBe(400)
        expect(await sizeOf()).toBe(seededCount)
      })

      it('refuses to force a status the operation does not declare, naming those it does', async () => {
        const refused = await send({ path: '/v1/pets', headers: { ...auth, prefer: 'code=500' } })
        expect(refused.status).toBe(400)
        expect(body(refused).message).toContain('200, 401')
      })

      it('answers a CORS preflight so browsers may send the key and a JSON body', async () => {
        const preflight = await mock.send({ method: 'OPTIONS', path: '/v1/pets' })
        expect(preflight.status).toBe(204)
        expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/i)
        expect(preflight.headers['access-control-allow-origin']).toBe('*')
      })

      it('lets a browser page on another origin read the body and the headers it needs', async () => {
        const created = await send({
          method: 'POST',
          path: '/v1/pets',
          headers: { ...json, origin: 'http://localhost:5173' },
          body: '{"name":"Cors","categoryId":1}',
        })
        expect(created.headers['access-control-allow-origin']).toBe('*')
        expect(created.headers['access-control-expose-headers']).toMatch(/Location/)
        const found = await send({
          path: '/v1/pets/1',
          headers: { ...auth, origin: 'http://localhost:5173' },
        })
        expect(found.headers['access-control-expose-headers']).toMatch(/Deprecation, Sunset/)
      })

      it('reseeds on POST /__mock/reset, forgetting created pets', async () => {
        await create({ name: 'Temporary', categoryId: 1 })
        await reset({ seed: 7, pets: 3 })
        const pets = body(await send({ path: '/v1/pets', headers: auth })) as Pet[]
        expect(pets.map(({ name }) => name)).toEqual([...seedPets(7, 3)].map(({ name }) => name))
      })

      it('refuses a reset without a JSON Content-Type with 415 and sends no CORS on control answers', async () => {
        const refused = await resetWith('{"pets":0}', {
          'content-type': 'text/plain',
          origin: 'http://evil.example',
        })
        expect(refused.status).toBe(415)
        expect(refused.headers['access-control-allow-origin']).toBeUndefined()
        expect(await sizeOf()).toBe(seededCount)
      })

      it('refuses a reset body it cannot use, keeping the pets', async () => {
        const refused = await resetWith('{"pets":-1}')
        expect(refused.status).toBe(400)
        expect(await sizeOf()).toBe(seededCount)
      })
    })

    describe('unhappy paths: latency, faults, scenarios, journal', () => {
      const createBody = '{"name":"Faulted","categoryId":1}'
      // Straight to the target: a network fault has no Error body for send() to check.
      const createPreferring = (prefer: string) =>
        mock.send({ method: 'POST', path: '/v1/pets', headers: { ...json, prefer }, body: createBody })

      it('adds no latency and no fault by default, and journals each request as served', async () => {
        const listed = await send({ path: '/v1/pets?limit=2', headers: auth })
        expect(listed.status).toBe(200)
        expect(listed.headers['x-mock-fault']).toBeUndefined()
        expect(await journal()).toEqual([
          {
            time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
            method: 'GET',
            path: '/v1/pets',
            query: 'limit=2',
            status: 200,
            latencyMs: 0,
            fault: null,
            authorized: true,
          },
        ])
      })

      it('waits for Prefer: delay=MS before answering and says so in Preference-Applied', async () => {
        const started = performance.now()
        const slow = await send({ path: '/v1/pets/1', headers: { ...auth, prefer: 'delay=150' } })
        // A lower bound only: a timer never fires early (by more than clock rounding), a loaded machine late.
        expect(performance.now() - started).toBeGreaterThanOrEqual(145)
        expect(slow.status).toBe(200)
        expect(slow.headers['preference-applied']).toBe('delay=150')
        expect((await journal())[0]).toMatchObject({ latencyMs: 150, status: 200, fault: null })
      })

      it.each(['delay=60001', 'delay=-1', 'delay=soon', 'fault=meltdown'])(
        'refuses Prefer: %s with 400 invalid_prefer saying what it accepts',
        async (prefer) => {
          const refused = await send({ path: '/v1/pets', headers: { ...auth, prefer } })
          expect(refused.status).toBe(400)
          expect(body(refused).code).toBe('invalid_prefer')
          expect(body(refused).message).toMatch(/from 0 to 60000|one of 503, 500, reset, timeout, truncate/)
        },
      )

      it.each([
        ['503', 'service_unavailable'],
        ['500', 'internal_error'],
      ])(
        'answers a create with Prefer: fault=%s with the Error body, marked, storing nothing',
        async (fault, code) => {
          const faulted = await send({
            method: 'POST',
            path: '/v1/pets',
            headers: { ...json, prefer: `fault=${fault}`, origin: 'http://localhost:5173' },
            body: createBody,
          })
          expect(faulted.status).toBe(Number(fault))
          expect(body(faulted).code).toBe(code)
          expect(faulted.headers['x-mock-fault']).toBe(fault)
          expect(faulted.headers['access-control-expose-headers']).toMatch(/X-Mock-Fault/)
          if (fault === '503') expect(faulted.headers['retry-after']).toBe('1')
          expect(await sizeOf()).toBe(seededCount)
        },
      )

      it('drops the connection for Prefer: fault=reset, storing nothing', async () => {
        await expect(createPreferring('fault=reset')).rejects.toThrow()
        expect(await sizeOf()).toBe(seededCount)
        expect((await journal())[0]).toMatchObject({ method: 'POST', status: null, fault: 'reset' })
      })

      it('never answers Prefer: fault=timeout, until the client gives up, and keeps serving others', async () => {
        await expect(
          mock.send({ path: '/v1/pets', headers: { ...auth, prefer: 'fault=timeout' }, timeoutMs: 300 }),
        ).rejects.toThrow()
        expect((await send({ path: '/v1/pets?limit=1', headers: auth })).status).toBe(200)
        expect((await journal()).map((entry) => entry.fault)).toEqual(['timeout', null])
      })

      it('cuts the body short for Prefer: fault=truncate, after a 200 and its headers', async () => {
        await expect(
          mock.send({ path: '/v1/pets', headers: { ...auth, prefer: 'fault=truncate' } }),
        ).rejects.toThrow()
        expect((await journal())[0]).toMatchObject({ status: 200, fault: 'truncate' })
        await expect(createPreferring('fault=truncate')).rejects.toThrow()
        expect(await sizeOf()).toBe(seededCount)
      })

      it('journals who was authorised, and never the key, not even one sent in the query', async () => {
        await send({ path: '/v1/pets' })
        await send({ path: `/v1/pets?limit=1&key=${caseApiKeys[0]}`, headers: auth })
        await send({ method: 'POST', path: '/v1/pets', headers: json, body: createBody })
        const entries = await journal()
        expect(entries.map(({ method, status, authorized }) => [method, status, authorized])).toEqual([
          ['GET', 401, false],
          ['GET', 200, true],
          ['POST', 201, true],
        ])
        expect(JSON.stringify(entries)).not.toContain(caseApiKeys[0])
        expect(entries[1]?.query).toBe('limit=1&key=<key>')
      })

      it('honours code and delay in one Prefer header, listing both as applied', async () => {
        const forced = await send({ path: '/v1/pets/1', headers: { ...auth, prefer: 'code=404, delay=20' } })
        expect(forced.status).toBe(404)
        expect(forced.headers['preference-applied']).toBe('code=404, delay=20')
      })

      it('journals only /v1, not the control endpoints, and answers POST /__mock/requests with 405', async () => {
        await send({ path: '/__mock/health' })
        const wrong = await send({
          method: 'POST',
          path: '/__mock/requests',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
        expect(wrong.status).toBe(405)
        expect(wrong.headers.allow).toBe('GET')
        expect(await journal()).toEqual([])
      })

      it('clears the journal on reset', async () => {
        await send({ path: '/v1/pets', headers: auth })
        await reset({ seed, pets: seededCount })
        expect(await journal()).toEqual([])
      })

      it('switches to the empty scenario and back without a restart', async () => {
        expect(await reset({ scenario: 'empty' })).toMatchObject({ pets: 0, scenario: 'empty' })
        expect(body(await send({ path: '/v1/pets', headers: auth }))).toEqual([])
        // The configured scenario comes back with the configured count, not the scenario's 50.
        expect(await reset({ scenario: 'default' })).toMatchObject({ pets: seededCount, scenario: 'default' })
        expect(body(await send({ path: '/__mock/health' })).scenario).toBe('default')
      })

      it('seeds 10,000 pets with long, non-Latin names in the many scenario', async () => {
        expect(await reset({ scenario: 'many' })).toMatchObject({ pets: 10_000 })
        const pets = body(await send({ path: '/v1/pets?limit=100', headers: auth })) as Pet[]
        expect(pets).toHaveLength(100)
        expect(pets.some((pet) => /[^\p{Script=Latin}\p{Script=Common}]/u.test(pet.name))).toBe(true)
        expect(Math.max(...pets.map((pet) => pet.name.length))).toBeGreaterThanOrEqual(1000)
        expect(body(await send({ path: '/v1/pets/10000', headers: auth })).id).toBe(10_000)
      })

      it('answers every create with 507 store_full in the full scenario, until reset to default', async () => {
        await reset({ scenario: 'full' })
        const refused = await send({
          method: 'POST',
          path: '/v1/pets',
          headers: json,
          body: '{"name":"A","categoryId":1}',
        })
        expect(refused.status).toBe(507)
        expect(body(refused).code).toBe('store_full')
        expect(await sizeOf()).toBe(50)
        await reset({ scenario: 'default' })
        expect(
          (await send({ method: 'POST', path: '/v1/pets', headers: json, body: createBody })).status,
        ).toBe(201)
      })

      it('delays every answer by 500 to 2000 ms in the slow scenario', async () => {
        await reset({ scenario: 'slow' })
        const started = performance.now()
        expect((await send({ path: '/v1/pets?limit=1', headers: auth })).status).toBe(200)
        const [entry] = await journal()
        expect(entry?.latencyMs).toBeGreaterThanOrEqual(500)
        expect(entry?.latencyMs).toBeLessThanOrEqual(2000)
        expect(performance.now() - started).toBeGreaterThanOrEqual((entry?.latencyMs ?? 0) - 5)
      })

      it('faults some requests in the flaky scenario, marked, never hanging, the same after each reset', async () => {
        const run = async () => {
          await reset({ scenario: 'flaky', seed: 5 })
          for (let index = 0; index < 25; index++)
            await mock.send({ path: '/v1/pets?limit=1', headers: auth }).catch(() => undefined)
          return (await journal()).map((entry) => entry.fault)
        }
        const first = await run()
        expect(first.filter((fault) => fault !== null).length).toBeGreaterThan(0)
        expect(first.filter((fault) => fault === null).length).toBeGreaterThan(10)
        expect(first).not.toContain('timeout')
        expect(await run()).toEqual(first)
      })

      it('refuses an unknown scenario with 400 naming the known ones', async () => {
        const refused = await resetWith('{"scenario":"chaos"}')
        expect(refused.status).toBe(400)
        expect(body(refused).message).toContain('default, empty, many, full, slow, flaky')
      })
    })

    describe('the control API: every option by name, nothing unknown', () => {
      const allowedKeys = [
        'scenario',
        'seed',
        'pets',
        'latency',
        'faultRate',
        'faultKinds',
        'operations',
        'date',
      ]

      it.each([
        ['{"scenaro":"empty"}', '"scenaro"'],
        ['{"seed":"7"}', 'seed must be an integer'],
        ['{"pets":2.5}', 'pets must be an integer'],
        ['{"latency":"fast"}', 'latency must be whole milliseconds'],
        ['{"latency":{"min":10}}', 'latency must be whole milliseconds'],
        ['{"latency":70000}', 'from 0 to 60000'],
        ['{"faultRate":"0.5"}', 'faultRate must be a number from 0 to 1'],
        ['{"faultRate":2}', 'from 0 to 1'],
        ['{"faultKinds":["meltdown"]}', 'faultKinds must be a list of 503, 500, reset, timeout, truncate'],
        ['{"faultKinds":[]}', 'faultKinds is empty'],
        ['{"operations":{"deletePet":{"latency":1}}}', 'unknown operation "deletePet"'],
        ['{"operations":{"createPet":{"latncy":1}}}', '"latncy"'],
        ['[]', 'must be an object'],
      ])(
        'refuses the reset body %s with 400 invalid_body, listing the allowed keys, keeping the pets',
        async (text, says) => {
          await create({ name: 'Kept', categoryId: 1 })
          const refused = await resetWith(text)
          expect(refused.status).toBe(400)
          expect(body(refused)).toMatchObject({ code: 'invalid_body', allowedKeys })
          expect(body(refused).message).toContain(says)
          expect(await sizeOf()).toBe(seededCount + 1)
        },
      )

      it('names every allowed key when a key is unknown', async () => {
        const refused = await resetWith('{"scenaro":"empty","pets":1}')
        expect(body(refused).message).toContain(allowedKeys.join(', '))
      })

      it('returns to the configured start on an empty reset, after a scenario and settings were set', async () => {
        await reset({ scenario: 'empty', latency: 5, faultRate: 1 })
        expect(await reset({})).toMatchObject({ pets: seededCount, seed, scenario: 'default' })
        const pets = body(await send({ path: '/v1/pets?limit=100', headers: auth })) as Pet[]
        expect(pets.map(({ name }) => name)).toEqual(expectedSeed.map(({ name }) => name))
        expect(await journal()).toMatchObject([{ latencyMs: 0, fault: null, status: 200 }])
      })

      it('sets a fixed latency through reset, journaled', async () => {
        await reset({ latency: 40 })
        const started = performance.now()
        expect((await send({ path: '/v1/pets?limit=1', headers: auth })).status).toBe(200)
        expect(performance.now() - started).toBeGreaterThanOrEqual(35)
        expect((await journal())[0]).toMatchObject({ latencyMs: 40, fault: null })
      })

      it('sets a latency range through reset, drawn within it', async () => {
        await reset({ latency: { min: 10, max: 30 } })
        await send({ path: '/v1/pets?limit=1', headers: auth })
        const [entry] = await journal()
        expect(entry?.latencyMs).toBeGreaterThanOrEqual(10)
        expect(entry?.latencyMs).toBeLessThanOrEqual(30)
      })

      it('sets the fault rate and kinds through reset: every request faulted with the kind given', async () => {
        await reset({ faultRate: 1, faultKinds: ['503'] })
        const faulted = await send({ path: '/v1/pets', headers: auth })
        expect(faulted.status).toBe(503)
        expect(faulted.headers['x-mock-fault']).toBe('503')
        expect(await reset({})).toMatchObject({ pets: seededCount })
        expect((await send({ path: '/v1/pets', headers: auth })).status).toBe(200)
      })

      it('sets per-operation settings through reset, leaving other operations alone', async () => {
        await reset({ operations: { createPet: { faultRate: 1 } }, faultKinds: ['500'] })
        expect((await send({ path: '/v1/pets?limit=1', headers: auth })).status).toBe(200)
        const faulted = await send({
          method: 'POST',
          path: '/v1/pets',
          headers: json,
          body: '{"name":"A","categoryId":1}',
        })
        expect(faulted.status).toBe(500)
        expect(await sizeOf()).toBe(seededCount)
      })
    })
  })
}
