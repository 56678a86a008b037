// The core over node:http: Host check, ordered pipelining, capped bodies, and latency and faults on sockets.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { hangLimitMs, truncatedBytes } from '../core/conditions.ts'
import { maxBodyBytes } from '../core/control-endpoints.ts'
import { errorResponse } from '../core/error-codes.ts'
import { jsonHeaders, type MockRequest, type MockResponse } from '../core/mock-http.ts'
import { createHostCheck, hostName } from './host-check.ts'
import { readRequestTarget } from './request-target.ts'

export interface HttpServerOptions {
  port: number
  host: string
  /** Host names answered besides loopback names, IP literals and `host` (see host-check.ts). */
  allowedHosts?: readonly string[]
  /** Called after each response with a one-line summary (off by default: logging costs throughput). */
  onRequest?: (line: string) => void
}

export interface RunningHttpServer {
  /** The server's origin, e.g. `http://127.0.0.1:4010`. */
  origin: string
  port: number
  close(): Promise<void>
}

/** Open connections beyond this are refused: each may hold a 1 MiB body and a 1 MiB page at once. */
const maxConnections = 1024

type Handle = (request: MockRequest) => MockResponse | Promise<MockResponse>

/**
 * Serves the core over node:http, adapting only the transport: check the Host, read the request, call
 * `handle`, write the response. Requests on one connection are handled in the order they arrived, even
 * when pipelined behind one whose body is still coming. Bodies are kept up to one byte past the core's
 * limit and the rest is drained unread, so a huge upload costs no memory and still gets the core's 413.
 */
export function serveHttp(handle: Handle, options: HttpServerOptions): Promise<RunningHttpServer> {
  const isAllowedHost = createHostCheck(options)
  // The last request still being handled on each connection; the next one waits for it.
  const busy = new WeakMap<Socket, Promise<void>>()

  const respond = (
    req: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string>,
    body: string | undefined,
  ) => {
    const target = readRequestTarget(req.url ?? '/')
    // RFC 9112 §3.2.2: with an absolute-form target, its authority is the host, not the Host header.
    const host = target.authority ?? headers.host
    const method = req.method ?? 'GET'
    const answer = isAllowedHost(host)
      ? handle({
          // RFC 9110 §9.3.2: HEAD is GET without the body; Node sends no body for HEAD.
          method: method === 'HEAD' ? 'GET' : method,
          path: target.path,
          query: target.query,
          headers,
          ...(body === undefined ? {} : { body }),
        })
      : errorResponse(
          'host_not_allowed',
          `Blocked request: the Host "${host}" is not one this mock answers. Use 127.0.0.1 or localhost, or start it with --allowed-host ${hostName(host ?? '') || '<name>'}.`,
        )
    if (!(answer instanceof Promise)) return write(req, res, answer)
    return answer.then(
      (response) => write(req, res, response),
      () =>
        write(
          req,
          res,
          errorResponse('internal_error', 'The mock failed unexpectedly; this is a bug in the mock.'),
        ),
    )
  }
  const write = (req: IncomingMessage, res: ServerResponse, response: MockResponse): void | Promise<void> => {
    // Latency and faults arrive decided by the core; this only carries them out on the socket.
    if (response.delayMs) {
      const { delayMs, ...now } = response
      return after(res, delayMs).then((open) => (open ? write(req, res, now) : undefined))
    }
    if (response.fault === 'reset') {
      req.socket.destroy()
      return log(req, response)
    }
    if (response.fault === 'timeout') {
      log(req, response)
      // Never answered: held until the client gives up or the server closes (both close the response),
      // and never longer than hangLimitMs, so a client without a timeout cannot hold it forever.
      return new Promise((resolve) => {
        const limit = setTimeout(() => req.socket.destroy(), hangLimitMs)
        res.once('close', () => {
          clearTimeout(limit)
          resolve()
        })
      })
    }
    const body = response.body
    const length = body === undefined ? 0 : Buffer.byteLength(body)
    // Most answers carry only the shared JSON headers: a literal object of one fixed shape is the
    // cheapest thing node:http can serialize, and this is the hot path of every list.
    if (response.headers === jsonHeaders) {
      res.writeHead(response.status, { 'content-type': 'application/json', 'content-length': length })
    } else {
      // Copied by a loop: spreading objects of many shapes is V8's slow path, measured at ~4 µs here.
      const headers: Record<string, string | number> = {}
      for (const name in response.headers) headers[name] = response.headers[name] as string
      headers['content-length'] = length
      res.writeHead(response.status, headers)
    }
    if (response.fault === 'truncate') {
      // The full Content-Length is declared and half the bytes sent, so the client sees a body cut short.
      res.write(truncatedBytes(body), () => req.socket.destroy())
      return log(req, response)
    }
    res.end(body)
    log(req, response)
  }
  const log = (req: IncomingMessage, response: MockResponse) => {
    if (!options.onRequest) return
    const fault = response.headers['x-mock-fault']
    const status = response.status === 0 ? 'no answer' : String(response.status)
    options.onRequest(`${req.method} ${req.url} -> ${status}${fault ? ` [fault: ${fault}]` : ''}`)
  }

  const server = createServer(
    {
      // node:http enforces headersTimeout/requestTimeout only when it checks its connections, every 30 s
      // by default: a 10 s header timeout could hold a socket for 40 s.
      connectionsCheckingInterval: 1000,
      headersTimeout: 10_000,
      // A client that stops sending mid-request must not hold a socket forever.
      requestTimeout: 30_000,
    },
    (req, res) => {
      // Read once from the raw list: node:http's own req.headers would be built a second time.
      const headers = headersOf(req.rawHeaders)
      const socket = req.socket
      const before = busy.get(socket)
      // RFC 9112 §6.3: a request without Content-Length or Transfer-Encoding has no body.
      const hasBody = headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined
      if (before === undefined && !hasBody) {
        const done = respond(req, res, headers, undefined)
        if (done) track(socket, done)
        return
      }
      const body = hasBody ? readBody(req) : Promise.resolve(undefined)
      const ready = before === undefined ? body : Promise.all([body, before]).then(([text]) => text)
      track(
        socket,
        ready.then((text) => respond(req, res, headers, text)),
      )
    },
  )
  const track = (socket: Socket, started: Promise<void>) => {
    const done = () => {
      if (busy.get(socket) === work) busy.delete(socket)
    }
    // A failure to write has no one left to answer: drop the connection, keep the server.
    const work: Promise<void> = started.then(done, () => {
      socket.destroy()
      done()
    })
    busy.set(socket, work)
  }
  server.maxConnections = maxConnections
  return listen(server, options)
}

/**
 * Header names in lower case, a repeated field joined with ", " as fetch's Headers does (node:http would
 * keep only the first Authorization or Content-Type), so the core sees the same request over any adapter.
 */
function headersOf(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (let index = 0; index < raw.length; index += 2) {
    const name = (raw[index] ?? '').toLowerCase()
    const value = raw[index + 1] ?? ''
    const earlier = headers[name]
    headers[name] = earlier === undefined ? value : `${earlier}, ${value}`
  }
  return headers
}

/** Resolves true after `ms`, or false as soon as the response closes (the client left, the server closed). */
function after(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const closed = () => {
      clearTimeout(timer)
      resolve(false)
    }
    const timer = setTimeout(() => {
      res.off('close', closed)
      resolve(true)
    }, ms)
    res.once('close', closed)
  })
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
