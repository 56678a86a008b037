// A reverse proxy limiting requests as nginx limit_req does: staging's rate limit on 127.0.0.1, for tests.
import { createServer } from 'node:http'
import { closeNow, listenOnLoopback } from './listen-on-loopback.ts'
import { pipeUpstream } from './pipe-upstream.ts'

export interface ThrottlingProxyOptions {
  /** The server behind it, e.g. `http://127.0.0.1:4010`. */
  upstream: string
  /** Requests per second let through once the burst is spent. */
  rate: number
  /** Requests let through at once beyond the rate (nginx `burst=N nodelay`). */
  burst: number
  /** What a refused request gets: nginx's default is 503; `limit_req_status 429` makes it 429. */
  status: 429 | 503
  /** Seconds to put in Retry-After (nginx sends none unless told to). */
  retryAfter?: number
}

export interface ThrottlingProxy {
  origin: string
  /** Requests forwarded and refused so far. */
  counts: { forwarded: number; refused: number }
  close(): Promise<void>
}

/**
 * A reverse proxy that limits requests as nginx `limit_req zone rate=R burst=B nodelay` does (a leaky bucket
 * of excess requests draining at R per second; past B the request is refused with nginx's own HTML page),
 * for tests and the bench: staging's rate limit on 127.0.0.1.
 */
export async function startThrottlingProxy(options: ThrottlingProxyOptions): Promise<ThrottlingProxy> {
  const upstream = new URL(options.upstream)
  const counts = { forwarded: 0, refused: 0 }
  let excess = 0
  let last = Date.now()
  const server = createServer((req, res) => {
    const now = Date.now()
    const drained = Math.max(0, excess - (options.rate * (now - last)) / 1000)
    if (drained + 1 > options.burst + 1) {
      counts.refused++
      const reason = options.status === 429 ? '429 Too Many Requests' : '503 Service Temporarily Unavailable'
      const page = `<html>\r\n<head><title>${reason}</title></head>\r\n<body>\r\n<center><h1>${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`
      req.resume()
      res.writeHead(options.status, {
        'content-type': 'text/html',
        ...(options.retryAfter === undefined ? {} : { 'retry-after': String(options.retryAfter) }),
      })
      res.end(page)
      return
    }
    excess = drained + 1
    last = now
    counts.forwarded++
    const target = { hostname: upstream.hostname, port: upstream.port, path: req.url, headers: req.headers }
    pipeUpstream(req, res, target, () => res.destroy())
  })
  return {
    origin: await listenOnLoopback(server),
    counts,
    close: () => closeNow(server),
  }
}
