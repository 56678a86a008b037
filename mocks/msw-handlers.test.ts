import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createMockApi } from './create-mock-api.ts'
import { caseApiKeys, describeMockBehaviour } from './mock-behaviour-cases.ts'

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
