// Sends a request byte for byte (dot segments, Latin-1 headers kept) for the reference servers' tests.
import { Agent, request } from 'node:http'

export interface RawExchange {
  status: number
  headers: Record<string, string>
  /** The body decoded as UTF-8 (RFC 8259 §8.1); bytes that are not UTF-8 become U+FFFD. */
  text: string
  /** The parsed JSON body, or undefined. */
  json: unknown
}

// Kept-alive sockets, a few at a time: the proof shares a 2-core machine with other work.
const agent = new Agent({ keepAlive: true, maxSockets: 8 })

/**
 * Sends one request byte for byte: the path as given (WHATWG URL parsing would resolve `/./`, `/../` and
 * `%2e`, which the path-spelling checks must send), headers as given (Latin-1 bytes such as U+00A0
 * included). node:http rather than undici for exactly that reason. Times out after `timeoutMs`.
 * @example await sendRaw('http://127.0.0.1:4010', { method: 'GET', path: '/v1/./pets', headers: {} })
 */
export function sendRaw(
  origin: string,
  options: {
    method: string
    path: string
    headers: Record<string, string>
    body?: string
    timeoutMs?: number
  },
): Promise<RawExchange> {
  const url = new URL(origin)
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8')
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: {
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          const headers = Object.fromEntries(
            Object.entries(res.headers).map(([name, value]) => [
              name,
              Array.isArray(value) ? value.join(', ') : String(value),
            ]),
          )
          resolve({ status: res.statusCode ?? 0, headers, text, json })
        })
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms`)))
    req.on('error', reject)
    req.end(body)
  })
}
