import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'

// --max-store-bytes is the mock's budget, not each session's: the sessions share it. A pet named with n
// characters is counted as 32 + 2n bytes; 3 pets seeded per session, a 1,200-byte budget in all.
let mock: MockProcess
beforeAll(async () => {
  mock = await startMockProcess([
    '--api-key',
    'k',
    '--seed',
    '3',
    '--pets',
    '3',
    '--max-store-bytes',
    '1200',
    '--max-sessions',
    '8',
  ])
})
afterAll(async () => {
  expect(await mock.stop()).toBe(0)
})

async function send(session: string | undefined, method: string, path: string, json?: unknown) {
  const response = await fetch(`${mock.origin}${path}`, {
    method,
    headers: {
      authorization: 'Bearer k',
      ...(session === undefined ? {} : { 'x-mock-session': session }),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? null : JSON.stringify(json),
  })
  return { status: response.status, body: await response.json() }
}
const create = (session: string | undefined, name: string) =>
  send(session, 'POST', '/v1/pets', { name, categoryId: 1 })
const storeBytes = async () =>
  ((await send(undefined, 'GET', '/__mock/health')).body.sessions.active as { storeBytes: number }[]).reduce(
    (sum, session) => sum + session.storeBytes,
    0,
  )

/**
 * Creates pets in `session` until the store is full (332-byte pets, then 36-byte ones; bounded): the
 * statuses, and the names given a 201.
 */
async function fill(session: string, prefix: string) {
  const statuses: number[] = []
  const stored: string[] = []
  for (const stem of [prefix.repeat(150), 's']) {
    for (let round = 0; round < 40; round++) {
      const name = `${stem}${round % 10}`
      const { status } = await create(session, name)
      statuses.push(status)
      if (status !== 201) break
      stored.push(name)
    }
  }
  return { statuses, stored }
}

describe('sessions share --max-store-bytes', () => {
  it('refuses a create with 507 once all sessions together fill the budget, keeping every pet stored', async () => {
    const { statuses, stored } = await fill('alpha', 'x')
    // alpha alone could hold the whole budget; beside the default session's pets it gets only the rest.
    expect(statuses).toContain(201)
    expect(statuses.at(-1)).toBe(507)
    expect(await storeBytes()).toBeLessThanOrEqual(1200)
    const full = await create('beta', 'Small')
    expect(full.status).toBe(507)
    expect(full.body).toMatchObject({ code: 'store_full', status: 507 })
    // Nothing stored was lost: alpha still lists every pet it was given a 201 for.
    const listed = ((await send('alpha', 'GET', '/v1/pets?limit=100')).body as { name: string }[]).map(
      (pet) => pet.name,
    )
    expect(listed).toEqual(expect.arrayContaining(stored))
  })

  it('frees a session’s share when it is reset, so the others can use it again', async () => {
    expect((await create(undefined, 'Before')).status).toBe(507)
    expect((await send('alpha', 'POST', '/__mock/reset', { scenario: 'empty' })).status).toBe(200)
    expect((await create(undefined, 'After')).status).toBe(201)
  })

  it('answers a new session whose seeded pets do not fit with 507 saying what to do, not a 500', async () => {
    expect((await fill('alpha', 'y')).statuses.at(-1)).toBe(507)
    const refused = await send('gamma', 'GET', '/v1/pets')
    expect(refused.status).toBe(507)
    expect(refused.body.code).toBe('store_full')
    expect(refused.body.message).toMatch(/--max-store-bytes/)
    expect(await storeBytes()).toBeLessThanOrEqual(1200)
  })
})
