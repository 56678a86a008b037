import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { maxBodyBytes } from '../core/handle-request.ts'
import type { MockRequest, MockResponse } from '../core/mock-http.ts'

export interface HttpServerOptions {
  port: number
  host: string
  /** Called after each response with a one-line summary (off by default: logging costs throughput). */
  onRequest?: (line: string) => void
}

export interface RunningHttpServer {
  /** The server's origin, e.g. `http://127.0.0.1:4010`. */
  origin: string
  port: number
  close(): Promise<void>
}

/**
 * Serves the core over node:http, adapting only the transport: read the request, call `handle`, write
 * the response. Bodies are kept up to one byte past the core's limit and the rest is drained unread, so
 * a huge upload costs no memory and still gets the core's 413.
 */
export function serveHttp(
  handle: (request: MockRequest) => MockResponse,
  options: HttpServerOptions,
): Promise<RunningHttpServer> {
  const respond = (req: IncomingMessage, res: ServerResponse, body: string | undefined) => {
    const url = req.url ?? '/'
    const queryAt = url.indexOf('?')
    const response = handle({
      method: req.method ?? 'GET',
      path: queryAt === -1 ? url : url.slice(0, queryAt),
      query: queryAt === -1 ? '' : url.slice(queryAt + 1),
      // Node lower-cases header names and joins repeats with ", " (only set-cookie stays an array,
      // and requests do not carry it), which is the shape the core reads.
      headers: req.headers as Record<string, string | undefined>,
      ...(body === undefined ? {} : { body }),
    })
    const length = response.body === undefined ? 0 : Buffer.byteLength(response.body)
    res.writeHead(response.status, { ...response.headers, 'content-length': String(length) })
    res.end(response.body)
    options.onRequest?.(`${req.method} ${url} -> ${response.status}`)
  }
  const server = createServer((req, res) => {
    // RFC 9112 §6.3: a request without Content-Length or Transfer-Encoding has no body; answer at once.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      respond(req, res, undefined)
    } else {
      readBody(req).then((body) => respond(req, res, body))
    }
  })
  // A client that stops sending mid-request must not hold a socket forever.
  server.requestTimeout = 30_000
  server.headersTimeout = 10_000
  return listen(server, options)
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let kept = 0
    req.on('data', (chunk: Buffer) => {
      if (kept > maxBodyBytes) return
      chunks.push(chunk)
      kept += chunk.length
    })
    req.on('end', () => resolve(chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8')))
    // An aborted upload has no one to answer; the socket is already gone.
    req.on('error', () => resolve(undefined))
  })
}

function listen(server: Server, options: HttpServerOptions): Promise<RunningHttpServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      const { port } = server.address() as AddressInfo
      const host = options.host.includes(':') ? `[${options.host}]` : options.host
      resolve({
        origin: `http://${host}:${port}`,
        port,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            server.closeAllConnections()
          }),
      })
    })
  })
}
