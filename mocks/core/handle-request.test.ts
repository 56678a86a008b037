import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { createMockApi } from '../create-mock-api.ts'
import { caseApiKeys, describeMockBehaviour } from '../proof/mock-behaviour-cases.ts'

// The core itself: a plain request in, a plain response out, no transport at all. The core only decides
// latency and faults; this target carries them out the way a fetch client would see them.
describeMockBehaviour('in-process through the core', async (seed, pets) => {
  const api = createMockApi({ seed, pets, apiKeys: caseApiKeys })
  return {
    async send({ method = 'GET', path, headers = {}, body, timeoutMs }) {
      const [pathname = '', query = ''] = path.split('?')
      const response = api.handle({
        method,
        path: pathname,
        query,
        headers,
        ...(body === undefined ? {} : { body }),
      })
      if (response.delayMs) await sleep(response.delayMs)
      if (response.fault === 'timeout') {
        if (timeoutMs === undefined) throw new Error('A timeout fault needs a client timeout in this test.')
        await sleep(timeoutMs)
        throw new DOMException('The operation timed out.', 'TimeoutError')
      }
      if (response.fault) throw new TypeError(`fetch failed (${response.fault})`)
      return { status: response.status, headers: response.headers, text: response.body ?? '' }
    },
  }
})

describe('the response cache', () => {
  const auth = { authorization: 'Bearer k' }
  const list = { method: 'GET', path: '/v1/pets', query: 'limit=100', headers: auth }

  it('answers a repeated GET with the same answer until the next write, then with the new pets', () => {
    const api = createMockApi({ seed: 1, pets: 3, apiKeys: ['k'] })
    const first = api.handle(list)
    expect(api.handle(list)).toBe(first)
    api.handle({
      method: 'POST',
      path: '/v1/pets',
      query: '',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"New","categoryId":1}',
    })
    const after = api.handle(list)
    expect(JSON.parse(after.body ?? '')).toHaveLength(4)
  })

  it('keeps answers apart by key, Prefer and Origin', () => {
    const api = createMockApi({ seed: 1, pets: 3, apiKeys: ['k'] })
    expect(api.handle(list).status).toBe(200)
    expect(api.handle({ ...list, headers: { authorization: 'Bearer wrong' } }).status).toBe(401)
    expect(api.handle({ ...list, headers: { ...auth, prefer: 'code=401' } }).status).toBe(401)
    const cors = api.handle({ ...list, headers: { ...auth, origin: 'http://localhost:5173' } })
    expect(cors.headers['access-control-allow-origin']).toBe('*')
    expect(api.handle(list).headers['access-control-allow-origin']).toBeUndefined()
  })
})
