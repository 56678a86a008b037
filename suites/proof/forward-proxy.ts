// A corporate-style forward proxy for tests: absolute-form and CONNECT, Basic credentials, private names.
import { createServer } from 'node:http'
import { connect, type Socket } from 'node:net'
import { listenOnLoopback } from './listen-on-loopback.ts'
import { pipeUpstream } from './pipe-upstream.ts'

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT` (credentials not included). */
  origin: string
  /** Request targets seen: absolute-form URLs and CONNECT authorities, in order. */
  seen: string[]
  close(): Promise<void>
}

/**
 * A forward proxy as a corporate one behaves, for tests: absolute-form requests for http targets, CONNECT
 * tunnels for https ones (and for http, as undici asks by default), Basic credentials required when given,
 * and host names only it can resolve (`hosts` maps them to 127.0.0.1 ports).
 */
export async function startForwardProxy(
  options: { hosts?: Record<string, string>; credentials?: string } = {},
): Promise<ForwardProxy> {
  const seen: string[] = []
  const sockets = new Set<Socket>()
  const resolveHost = (host: string) => options.hosts?.[host] ?? host
  const allowed = (header: string | undefined) =>
    options.credentials === undefined ||
    header === `Basic ${Buffer.from(options.credentials).toString('base64')}`
  const server = createServer((req, res) => {
    seen.push(req.url ?? '')
    if (!allowed(req.headers['proxy-authorization'])) return void res.writeHead(407).end()
    const target = new URL(req.url ?? '')
    const [hostname, port] = resolveHost(`${target.hostname}:${target.port || 80}`).split(':')
    const headers = { ...req.headers }
    delete headers['proxy-authorization']
    const path = target.pathname + target.search
    pipeUpstream(req, res, { hostname, port: port ?? 80, path, headers }, () => res.writeHead(502).end())
  })
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`)
    sockets.add(client)
    if (!allowed(req.headers['proxy-authorization']))
      return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
    const mapped = resolveHost(req.url ?? '')
    const colon = mapped.lastIndexOf(':')
    if (!options.hosts?.[req.url ?? ''] && !/^127\.0\.0\.1:|^localhost:/.test(mapped))
      return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
    const upstream = connect(Number(mapped.slice(colon + 1)), mapped.slice(0, colon), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  server.on('connection', (socket: Socket) => sockets.add(socket))
  return {
    origin: await listenOnLoopback(server),
    seen,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => done())
      }),
  }
}
