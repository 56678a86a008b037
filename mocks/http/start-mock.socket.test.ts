import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  caseApiKeys,
  caseSeed,
  caseSeededCount,
  describeMockBehaviour,
} from '../proof/mock-behaviour-cases.ts'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'

// What `npm start` runs, as its own process on a real socket on 127.0.0.1, configured as the cases say:
// an empty reset brings it back to that start before each case.
let mock: MockProcess
beforeAll(async () => {
  mock = await startMockProcess([
    ...caseApiKeys.flatMap((key) => ['--api-key', key]),
    '--seed',
    String(caseSeed),
    '--pets',
    String(caseSeededCount),
  ])
})
afterAll(async () => {
  expect(await mock.stop()).toBe(0)
})

/** The cases over HTTP, every request in the session named (none: the default session). */
const overHttp = (session: string | undefined) => async () => {
  const sessionHeaders: Record<string, string> = session === undefined ? {} : { 'x-mock-session': session }
  const reset = await fetch(`${mock.origin}/__mock/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sessionHeaders },
  })
  expect(reset.status).toBe(200)
  return {
    async send({
      method = 'GET',
      path,
      headers = {},
      body,
      timeoutMs,
    }: {
      method?: string
      path: string
      headers?: Record<string, string>
      body?: string
      timeoutMs?: number
    }) {
      const signal = timeoutMs === undefined ? null : AbortSignal.timeout(timeoutMs)
      const response = await fetch(`${mock.origin}${path}`, {
        method,
        headers: { ...headers, ...sessionHeaders },
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
}

describeMockBehaviour('over HTTP from npm start', overHttp(undefined))
describeMockBehaviour('over HTTP from npm start, in an X-Mock-Session', overHttp('worker-1'))

it('prints its base URL and the key in use once listening', () => {
  expect(mock.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/v1/)
  expect(mock.output()).toContain('API keys: test-key, second-key')
})
