import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../create-mock-api.ts'

// getPet's sunset is 2030-12-05 (contract/openapi.yaml): a frontend rehearses its removal by giving the mock
// that day, in every runtime, and goes back with a reset.
const key = 'sunset-key'
const auth = { authorization: `Bearer ${key}` }

describe('the mock as of a day past an operation’s sunset (the core, as every runtime runs it)', () => {
  const get = (api: ReturnType<typeof createMockApi>, path: string) =>
    api.handle({ method: 'GET', path, query: '', headers: auth })

  it('answers the removed operation 410 operation_removed, naming the day and the replacement', () => {
    const api = createMockApi({ apiKeys: [key], pets: 3, date: '2030-12-05' })
    const removed = get(api, '/v1/pets/1')
    expect(removed.status).toBe(410)
    expect(JSON.parse(removed.body ?? '{}')).toEqual({
      code: 'operation_removed',
      status: 410,
      message: 'GET /v1/pets/{petId} was removed on 2030-12-05, its sunset; use GET /pets?status=….',
    })
    expect(get(api, '/v1/pets').status).toBe(200)
  })

  it('answers it as today the day before, with its Deprecation and Sunset headers, and a reset moves the day', () => {
    const api = createMockApi({ apiKeys: [key], pets: 3, date: '2030-12-04' })
    const served = get(api, '/v1/pets/1')
    expect(served.status).toBe(200)
    expect(served.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT')
    api.reset({ date: '2031-01-01' })
    expect(get(api, '/v1/pets/1').status).toBe(410)
    api.reset()
    expect(get(api, '/v1/pets/1').status).toBe(200)
  })

  it('refuses a day that is not one, saying how to write it', () => {
    expect(() => createMockApi({ date: '2030-02-30' })).toThrow(/YYYY-MM-DD/)
    const api = createMockApi()
    const refused = api.handle({
      method: 'POST',
      path: '/__mock/reset',
      query: '',
      headers: { 'content-type': 'application/json' },
      body: '{"date":"05/12/2030"}',
    })
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.body ?? '{}').message).toMatch(/date must be a day written YYYY-MM-DD/)
  })
})

describe('the rehearsal under MSW’s setupServer, as a vitest test of a frontend runs it', () => {
  const api = createMockApi({ apiKeys: [key], pets: 3, date: '2030-12-05' })
  const server = setupServer(...api.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  it('gives the app a 410 for the removed operation and the list it should move to', async () => {
    const removed = await fetch('https://api.example.test/v1/pets/1', { headers: auth })
    expect([removed.status, (await removed.json()).code]).toEqual([410, 'operation_removed'])
    expect((await fetch('https://api.example.test/v1/pets?status=available', { headers: auth })).status).toBe(
      200,
    )
  })
})
