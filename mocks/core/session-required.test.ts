import { describe, expect, it } from 'vitest'
import { createMockApi } from '../create-mock-api.ts'

// requireSession in code: the same core answer the HTTP mock's --require-session gives, in process.
const get = (path: string, headers: Record<string, string> = {}) =>
  ({ method: 'GET', path, query: '', headers: { authorization: 'Bearer k', ...headers } }) as const

describe('requireSession', () => {
  it('refuses a /v1 request without X-Mock-Session with 400 session_required in the Error shape', () => {
    const api = createMockApi({ apiKeys: ['k'], pets: 1, requireSession: true })
    const answer = api.handle(get('/v1/pets'))
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body ?? '')).toEqual({
      code: 'session_required',
      message: expect.stringContaining('"X-Mock-Session: <name>"'),
      status: 400,
    })
    expect(api.handle(get('/v1/pets', { 'x-mock-session': 'worker-1' })).status).toBe(200)
    expect(api.handle(get('/__mock/health')).status).toBe(200)
  })

  it('is off unless asked for', () => {
    expect(createMockApi({ apiKeys: ['k'] }).handle(get('/v1/pets')).status).toBe(200)
  })
})
