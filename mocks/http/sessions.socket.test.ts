import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Pet } from '../../contract/types.ts'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'

// Sessions over real sockets: the mock as `npm start` runs it, at most two named sessions at once.
let mock: MockProcess
beforeAll(async () => {
  mock = await startMockProcess(['--api-key', 'k', '--seed', '3', '--pets', '5', '--max-sessions', '2'])
})
afterAll(async () => {
  expect(await mock.stop()).toBe(0)
})

const auth = { authorization: 'Bearer k' }
const inSession = (session: string | undefined): Record<string, string> =>
  session === undefined ? {} : { 'x-mock-session': session }
async function send(session: string | undefined, method: string, path: string, json?: unknown) {
  const response = await fetch(`${mock.origin}${path}`, {
    method,
    headers: {
      ...auth,
      ...inSession(session),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? null : JSON.stringify(json),
  })
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => null) }
}
const names = async (session: string | undefined) =>
  ((await send(session, 'GET', '/v1/pets?limit=100')).body as Pet[]).map((pet) => pet.name)
const create = async (session: string | undefined, name: string) =>
  (await send(session, 'POST', '/v1/pets', { name, categoryId: 1 })).status
const reset = async (session: string | undefined, options: object = {}) =>
  (await send(session, 'POST', '/__mock/reset', options)).status
const health = async () => (await send(undefined, 'GET', '/__mock/health')).body

describe('sessions chosen by X-Mock-Session', () => {
  it('keeps each session its own pets: what one creates, no other lists', async () => {
    await Promise.all([reset(undefined), reset('alpha'), reset('beta')])
    const seeded = await names(undefined)
    expect(seeded).toHaveLength(5)
    expect(await create('alpha', 'Only in alpha')).toBe(201)
    expect(await create('beta', 'Only in beta')).toBe(201)
    expect(await names('alpha')).toEqual([...seeded, 'Only in alpha'])
    expect(await names('beta')).toEqual([...seeded, 'Only in beta'])
    expect(await names(undefined)).toEqual(seeded)
    // Both got id 6: ids are per session, as two fresh servers would give them.
    expect((await send('alpha', 'GET', '/v1/pets/6')).body.name).toBe('Only in alpha')
  })

  it('starts every new session from the configured start, and resets one session only', async () => {
    await reset('alpha')
    await create('alpha', 'Gone after reset')
    await create('beta', 'Stays')
    expect(await reset('alpha', { scenario: 'empty' })).toBe(200)
    expect(await names('alpha')).toEqual([])
    expect(await names('beta')).toContain('Stays')
    expect(await reset('alpha')).toBe(200)
    expect(await names('alpha')).toHaveLength(5)
  })

  it('keeps latency, faults, scenario and journal per session', async () => {
    await Promise.all([
      reset('alpha', { faultRate: 1, faultKinds: ['503'] }),
      reset('beta', { scenario: 'full' }),
    ])
    expect((await send('alpha', 'GET', '/v1/pets')).status).toBe(503)
    expect((await send('beta', 'GET', '/v1/pets')).status).toBe(200)
    expect(await create('beta', 'No room')).toBe(507)
    expect(await create(undefined, 'Room here')).toBe(201)
    const journal = async (session: string) =>
      ((await send(session, 'GET', '/__mock/requests')).body.requests as { status: number }[]).map(
        (entry) => entry.status,
      )
    expect(await journal('alpha')).toEqual([503])
    expect(await journal('beta')).toEqual([200, 507])
    await reset(undefined)
  })

  it('evicts the least recently used session beyond --max-sessions, and lists the sessions in health', async () => {
    await reset('alpha')
    await create('alpha', 'Alpha pet')
    await reset('beta')
    await names('alpha') // alpha is now the most recently used; beta goes first
    await reset('gamma')
    const held = (await health()).sessions
    expect(held.maxSessions).toBe(2)
    expect(held.active.map((session: { name: string }) => session.name)).toEqual([
      'default',
      'alpha',
      'gamma',
    ])
    expect(held.active[1]).toMatchObject({ name: 'alpha', pets: 6, scenario: 'default' })
    expect(held.active[1].storeBytes).toBeGreaterThan(0)
    expect(await names('alpha')).toContain('Alpha pet')
    // beta comes back as a new session from the configured start (evicting gamma, now the oldest).
    expect(await names('beta')).toHaveLength(5)
  })

  it.each(['', 'has space', 'x'.repeat(65), 'a/b', 'a,b'])(
    'refuses the session name %j with 400 and the Error body',
    async (name) => {
      const response = await fetch(`${mock.origin}/v1/pets`, {
        headers: { ...auth, 'x-mock-session': name },
      })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'invalid_parameter', status: 400 })
    },
  )

  it('lets pages send X-Mock-Session: the CORS preflight allows it', async () => {
    const preflight = await fetch(`${mock.origin}/v1/pets`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, x-mock-session',
      },
    })
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/X-Mock-Session/)
  })
})

describe('a mock started with --max-sessions 0', () => {
  it('refuses X-Mock-Session with 400 saying how to start it, and serves requests without it', async () => {
    const single = await startMockProcess(['--api-key', 'k', '--max-sessions', '0'])
    try {
      const refused = await fetch(`${single.origin}/v1/pets`, { headers: { ...auth, 'x-mock-session': 'a' } })
      expect(refused.status).toBe(400)
      expect((await refused.json()).message).toContain('--max-sessions')
      expect((await fetch(`${single.origin}/v1/pets`, { headers: auth })).status).toBe(200)
    } finally {
      expect(await single.stop()).toBe(0)
    }
  })
})
