// Checks no cache in front of the server hands one client's answer to another across the key.
import { type Check, ensure, listPets } from '../engine/index.ts'

/**
 * A cache in front of the service (nginx `proxy_cache`, a CDN) whose key leaves out `Authorization` serves
 * one client's answer to another: the page an authorised client got to a request without a key, or the 401
 * a keyless request got to a client with the key (RFC 9111 §3.5: a shared cache must not reuse a response to
 * an authorised request unless told it may; a response that depends on the key needs `Vary` or no caching).
 * Three requests for one URL no other check asks for: without a key, with it, without it again.
 */
export const sharedCacheChecks: Check[] = [
  {
    group: 'security',
    name: 'one URL asked without the key, with it, then without it: 401, 200, 401 (no cache shares answers across keys)',
    async run(context) {
      const query = { limit: 3, status: 'pending' }
      const first = await context.send('listPets', {
        intent: 'unauthorized',
        fault: 'no credentials',
        query,
        authorization: null,
      })
      // A server that does not answer 401 without a key at all is that finding, not a cache's.
      if (first.response.status !== 401) return
      await listPets(context, query)
      const again = await context.send('listPets', { intent: 'no-data', query, authorization: null })
      // No answer within the short wait a keyless request gets (a slow proxy under load) shows no cache.
      if (again.response.status === 0) {
        context.warn(
          'GET /pets?limit=3&status=pending without a key got no answer in time after an authorised request for the same URL: whether a cache shares answers across keys was not judged.',
        )
        return
      }
      ensure(
        again.response.status === 401,
        { rule: 'auth', where: 'no credentials, after an authorised request for the same URL' },
        `GET /pets?limit=3&status=pending without a key answered 401, then ${again.response.status} once the same URL had been asked with the key: an answer for the key was served without one (a cache keyed without Authorization?).`,
        again,
      )
    },
  },
]
