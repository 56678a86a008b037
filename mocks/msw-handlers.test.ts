import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from './create-mock-api.ts'
import { caseApiKeys, describeMockBehaviour } from './proof/mock-behaviour-cases.ts'

// MSW's setupServer intercepts the global fetch; nothing leaves the process.
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describeMockBehaviour('through MSW setupServer with fetch', async (seed, pets) => {
  server.resetHandlers(...createMockApi({ seed, pets, apiKeys: caseApiKeys }).handlers)
  return {
    async send({ method = 'GET', path, headers = {}, body, timeoutMs }) {
      const signal = timeoutMs === undefined ? null : AbortSignal.timeout(timeoutMs)
      const response = await fetch(`http://animal-store.test${path}`, {
        method,
        headers,
        body: body ?? null,
        signal,
      })
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        text: await response.text(),
      }
    },
  }
})

describe('createMockApi latency and fault options through MSW', () => {
  it('delays the operation given a latency, faults the one given a rate, and journals both', async () => {
    const api = createMockApi({
      apiKeys: ['k'],
      latency: 0,
      operations: { getPet: { latency: 80 }, createPet: { faultRate: 1 } },
      faultKinds: ['reset'],
    })
    server.use(...api.handlers)
    const auth = { authorization: 'Bearer k' }
    const started = performance.now()
    expect((await fetch('http://animal-store.test/v1/pets/1', { headers: auth })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(75)
    await expect(
      fetch('http://animal-store.test/v1/pets', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"name":"Lost","categoryId":1}',
      }),
    ).rejects.toThrow(TypeError)
    expect(
      api.requests.map(({ path, status, latencyMs, fault }) => ({ path, status, latencyMs, fault })),
    ).toEqual([
      { path: '/v1/pets/1', status: 200, latencyMs: 80, fault: null },
      { path: '/v1/pets', status: null, latencyMs: 0, fault: 'reset' },
    ])
    expect(api.store.size).toBe(50)
  })
})
