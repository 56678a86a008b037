// Reads a node:http request whole as the mock's core takes it, so a proof server can answer like the mock.
import type { IncomingMessage } from 'node:http'
import type { MockRequest } from '../../mocks/core/mock-http.ts'

/**
 * A node:http request read whole, as the mock's core takes it: what lets a proof server answer like the
 * mock wherever it does not attack.
 * @example const answer = mock.handle(await readMockRequest(req))
 */
export function readMockRequest(
  req: IncomingMessage,
): Promise<MockRequest & { headers: Record<string, string> }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const [path = '/', query = ''] = (req.url ?? '/').split('?')
      const headers = Object.fromEntries(Object.entries(req.headers).map(([n, v]) => [n, String(v)]))
      const body = chunks.length ? Buffer.concat(chunks).toString() : undefined
      resolve({ method: req.method ?? 'GET', path, query, headers, ...(body === undefined ? {} : { body }) })
    })
  })
}
