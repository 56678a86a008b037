import { afterAll, beforeAll, expect, it } from 'vitest'
import { caseApiKeys, describeMockBehaviour } from '../proof/mock-behaviour-cases.ts'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'

// What `npm start` runs, as its own process on a real socket on 127.0.0.1.
let mock: MockProcess
beforeAll(async () => {
  mock = await startMockProcess(caseApiKeys.flatMap((key) => ['--api-key', key]))
})
afterAll(async () => {
  expect(await mock.stop()).toBe(0)
})

describeMockBehaviour('over HTTP from npm start', async (seed, pets) => {
  const reset = await fetch(`${mock.origin}/__mock/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seed, pets, scenario: 'default' }),
  })
  expect(reset.status).toBe(200)
  return {
    async send({ method = 'GET', path, headers = {}, body, timeoutMs }) {
      const signal = timeoutMs === undefined ? null : AbortSignal.timeout(timeoutMs)
      const response = await fetch(`${mock.origin}${path}`, { method, headers, body: body ?? null, signal })
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        text: await response.text(),
      }
    },
  }
})

it('prints its base URL and the key in use once listening', () => {
  expect(mock.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/)
  expect(mock.output()).toContain('API keys: test-key, second-key')
})
