// Whole GET answers kept until the store's next write, so a polling page skips auth, routing, validation.
import type { MockRequest, MockResponse } from './mock-http.ts'

/** At most this many answers are kept; the oldest goes first. */
const maxCachedResponses = 128
// Keys and bodies above these sizes are not worth keeping: a page is already in the store's page cache.
const maxKeyLength = 1024
const maxBodyLength = 32 * 1024

/**
 * Whole answers to GET requests, kept until the store's next write. A GET's answer depends only on its
 * path, query, `Authorization`, `Prefer` and `Origin` and on the pets, so a frontend polling the same
 * page skips auth, routing and validation entirely. Bounded: 128 answers of at most 32 KiB each.
 */
export class ResponseCache {
  private version = -1
  private readonly answers = new Map<string, MockResponse>()

  /** The cache key of a request, or undefined when it must not be cached (not a GET, or too large). */
  keyOf(request: MockRequest): string | undefined {
    if (request.method !== 'GET') return undefined
    const { authorization, prefer, origin } = request.headers
    const key = `${request.path}?${request.query}\n${authorization ?? ''}\n${prefer ?? ''}\n${origin ?? ''}`
    return key.length <= maxKeyLength ? key : undefined
  }

  get(version: number, key: string): MockResponse | undefined {
    if (version !== this.version) {
      this.version = version
      this.answers.clear()
      return undefined
    }
    return this.answers.get(key)
  }

  set(version: number, key: string, response: MockResponse): void {
    if (version !== this.version || (response.body?.length ?? 0) > maxBodyLength) return
    if (this.answers.size >= maxCachedResponses) {
      const oldest = this.answers.keys().next()
      if (!oldest.done) this.answers.delete(oldest.value)
    }
    this.answers.set(key, response)
  }
}
