import { createMockApi } from 'animal-store-contract-kit/mocks'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const api = createMockApi({ apiKeys: ['test-key'] })
const server = setupServer(...api.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  server.resetHandlers()
  api.reset({ scenario: 'default' }) // 50 pets, no latency, no faults, an empty journal
})
afterAll(() => server.close())

const url = 'https://api.example.test/v1/pets'
const headers = { authorization: 'Bearer test-key' }

// Your data code: a failure of the server (5xx) or of the network gets one retry.
async function listPets(): Promise<unknown[]> {
  let failure: unknown
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await fetch(url, { headers }).catch((error: Error) => error)
    if (!(response instanceof Response)) failure = response
    else if (response.ok) return response.json()
    else if (response.status < 500) throw new Error(`The server refused: ${response.status}`)
    else failure = `status ${response.status}`
  }
  throw new Error(`Gave up after 2 attempts: ${failure}`)
}

it('retries a failing list once, and only once', async () => {
  const failing = createMockApi({ apiKeys: ['test-key'], faultRate: 1, faultKinds: ['503'] })
  server.use(...failing.handlers)
  await expect(listPets()).rejects.toThrow('Gave up after 2 attempts: status 503')
  expect(failing.requests.map((request) => [request.method, request.status])).toEqual([
    ['GET', 503],
    ['GET', 503],
  ])
})

it('gets the fault it asks for with Prefer', async () => {
  const unavailable = await fetch(url, { headers: { ...headers, prefer: 'fault=503' } })
  expect(unavailable.status).toBe(503)
  expect(unavailable.headers.get('retry-after')).toBe('1')
  await expect(fetch(url, { headers: { ...headers, prefer: 'fault=reset' } })).rejects.toThrow(TypeError)
  const hanging = fetch(url, {
    headers: { ...headers, prefer: 'fault=timeout' },
    signal: AbortSignal.timeout(200),
  })
  await expect(hanging).rejects.toThrow(/aborted|timeout/i)
  expect(api.requests.map((request) => request.fault)).toEqual(['503', 'reset', 'timeout'])
})

it('switches scenario between tests without a restart', async () => {
  api.reset({ scenario: 'empty' })
  expect(await listPets()).toEqual([])
  api.reset({ scenario: 'many' }) // 10,000 pets with long, non-Latin names
  expect(await listPets()).toHaveLength(20)
})
