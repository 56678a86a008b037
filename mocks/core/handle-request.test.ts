import { createMockApi } from '../create-mock-api.ts'
import { caseApiKeys, describeMockBehaviour } from '../mock-behaviour-cases.ts'

// The core itself: a plain request in, a plain response out, no transport at all.
describeMockBehaviour('in-process through the core', async (seed, pets) => {
  const api = createMockApi({ seed, pets, apiKeys: caseApiKeys })
  return {
    async send({ method = 'GET', path, headers = {}, body }) {
      const [pathname = '', query = ''] = path.split('?')
      const response = api.handle({
        method,
        path: pathname,
        query,
        headers,
        ...(body === undefined ? {} : { body }),
      })
      return { status: response.status, headers: response.headers, text: response.body ?? '' }
    },
  }
})
