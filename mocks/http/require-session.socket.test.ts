import { afterAll, beforeAll, expect, it } from 'vitest'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'

// --require-session over real sockets: the mock as `npm start` runs it, with the flag.
let mock: MockProcess
beforeAll(async () => {
  mock = await startMockProcess(['--api-key', 'k', '--seed', '3', '--pets', '2', '--require-session'])
})
afterAll(async () => {
  expect(await mock.stop()).toBe(0)
})

const send = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
  const response = await fetch(`${mock.origin}${path}`, {
    method,
    headers: { authorization: 'Bearer k', ...headers },
  })
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => null) }
}

it('answers a /v1 request without X-Mock-Session with 400 session_required, in the contract’s Error shape, naming the header', async () => {
  const refused = await send('/v1/pets', { origin: 'http://localhost:5173' })
  expect(refused.status).toBe(400)
  expect(refused.body).toEqual({ code: 'session_required', message: expect.any(String), status: 400 })
  expect(refused.body.message).toContain('add the header "X-Mock-Session: <name>" to every /v1 request')
  // A page on another origin can read why (the answer carries CORS like any /v1 answer).
  expect(refused.headers.get('access-control-allow-origin')).toBe('*')
  // Spelled another way, the path is the same resource and still refused.
  expect((await send('/v1/./pets/1')).status).toBe(400)
})

it('serves a /v1 request naming a session, the default one included, and leaves /__mock and preflights alone', async () => {
  expect((await send('/v1/pets', { 'x-mock-session': 'run-a1-worker-0' })).body).toHaveLength(2)
  expect((await send('/v1/pets', { 'x-mock-session': 'default' })).status).toBe(200)
  expect((await send('/__mock/health')).status).toBe(200)
  expect((await send('/__mock/requests')).status).toBe(200)
  const preflight = await send(
    '/v1/pets',
    { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    'OPTIONS',
  )
  expect(preflight.status).toBe(204)
  // The default session's journal shows the refused requests, so a forgotten forward can be found.
  const { requests } = (await send('/__mock/requests')).body as {
    requests: { path: string; status: number }[]
  }
  expect(requests.filter((entry) => entry.status === 400).map((entry) => entry.path)).toEqual([
    '/v1/pets',
    '/v1/pets/1',
  ])
})
