import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contract } from '../../contract/index.ts'
import { createHttpSessions } from './http-sessions.ts'
import { type RunningHttpServer, serveHttp } from './serve-http.ts'

// New X-Mock-Session names start from the default session's seeded pets, shared rather than seeded
// again: the sessions as `npm start` builds them, served in-process on a real socket. (How long other
// sessions wait meanwhile is the bench's figure, docs/benchmarks.md.)
const pets = 200_000
let server: RunningHttpServer
let sessions: ReturnType<typeof createHttpSessions>

beforeAll(async () => {
  sessions = createHttpSessions({
    contract,
    apiKeys: ['k'],
    start: { seed: 3, pets },
    maxSessions: 8,
    maxStoreBytes: 256 * 1024 * 1024,
    maxPageCacheBytes: 1024 * 1024,
  })
  server = await serveHttp(sessions.handle, { port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  await server.close()
})

async function send(session: string | undefined, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers: {
      authorization: 'Bearer k',
      ...(session === undefined ? {} : { 'x-mock-session': session }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: await response.json() }
}

describe('new sessions start from the seeded pets', () => {
  it('serves a new session every seeded pet, the same as the default session, from its first request', async () => {
    const health = await send('fresh', 'GET', '/__mock/health')
    expect(health.status).toBe(200)
    expect(health.body.pets).toBe(pets)
    const own = await send('fresh', 'GET', '/v1/pets?limit=5')
    const seeded = await send(undefined, 'GET', '/v1/pets?limit=5')
    expect(own.body).toEqual(seeded.body)
    expect((await send('fresh', 'GET', `/v1/pets/${pets}`)).body).toEqual(
      (await send(undefined, 'GET', `/v1/pets/${pets}`)).body,
    )
  })

  it('keeps the pets each session adds after the shared ones to that session alone', async () => {
    const first = await send('first', 'POST', '/v1/pets', {
      name: 'Only in first',
      categoryId: 1,
      status: 'sold',
    })
    const second = await send('second', 'POST', '/v1/pets', { name: 'Only in second', categoryId: 2 })
    // Both take the first id after the seeded pets: each store's own pets start there.
    expect([first.status, second.status]).toEqual([201, 201])
    expect([first.body.id, second.body.id]).toEqual([pets + 1, pets + 1])
    expect((await send('first', 'GET', `/v1/pets/${pets + 1}`)).body.name).toBe('Only in first')
    expect((await send('second', 'GET', `/v1/pets/${pets + 1}`)).body.name).toBe('Only in second')
    expect((await send(undefined, 'GET', `/v1/pets/${pets + 1}`)).status).toBe(404)
    expect((await send('third', 'GET', `/v1/pets/${pets + 1}`)).status).toBe(404)
  })

  it('returns a session to the shared pets on an empty reset, dropping only its own', async () => {
    await send('resetting', 'POST', '/v1/pets', { name: 'Gone after the reset', categoryId: 1 })
    expect((await send('resetting', 'GET', '/__mock/health')).body.pets).toBe(pets + 1)
    const reset = await send('resetting', 'POST', '/__mock/reset', {})
    expect(reset.status).toBe(200)
    expect((await send('resetting', 'GET', '/__mock/health')).body.pets).toBe(pets)
    expect((await send('resetting', 'GET', `/v1/pets/${pets + 1}`)).status).toBe(404)
    expect((await send('first', 'GET', `/v1/pets/${pets + 1}`)).body.name).toBe('Only in first')
  })
})
