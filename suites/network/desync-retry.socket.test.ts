import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boundedRequest, desyncFacts } from './bounded-request.ts'

// A server that, the first time it is asked for a path below, writes a whole response nobody asked for on
// the connection: in the same write as its answer (`/then-extra`), or ahead of its answer (`/extra-first`,
// either method). `/then-idle-extra` keeps its connection for the test to write on once it is idle. Every
// request is counted, with the connection it came on.
const extra = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'
const seen: { line: string; socket: Socket }[] = []
let server: Server
let origin: string
let idleSocket: Socket | undefined

function answer(req: IncomingMessage, res: ServerResponse): void {
  const { socket } = req
  const line = `${req.method} ${req.url}`
  const first = !seen.some((one) => one.line === line)
  seen.push({ line, socket })
  const body = JSON.stringify({ asked: line })
  const respond = () => res.writeHead(200, { 'content-type': 'application/json' }).end(body)
  if (!first) return void respond()
  // Corked, so that the extra response and the answer leave in one write and are read together.
  if (req.url === '/then-extra' || req.url === '/extra-first') {
    socket.cork()
    if (req.url === '/extra-first') socket.write(extra)
    respond()
    if (req.url === '/then-extra') socket.write(extra)
    return void process.nextTick(() => socket.uncork())
  }
  if (req.url === '/then-idle-extra') idleSocket = socket
  // What reference D and compressing frameworks send for HEAD: the GET's headers, gzip included, no body.
  if (req.url?.startsWith('/compressed-head'))
    return void res.writeHead(405, { 'content-encoding': 'gzip', allow: 'GET' }).end()
  respond()
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    req.on('end', () => answer(req, res))
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((closed) => server.close(closed))
})

// Each test has a client of its own (a client is per network setting): the first desync turns keep-alive
// off for the rest of its client's run.
const clientFor = (name: string) => ({
  requestTimeoutMs: 2000,
  maxResponseBytes: 1024,
  runDeadline: Date.now() + 30_000,
  network: { headers: [['x-test', name]] as [string, string][] },
})
const send = (path: string, name: string, method = 'GET') =>
  boundedRequest(`${origin}${path}`, { method, headers: {} }, clientFor(name))
const bodyOf = (outcome: Awaited<ReturnType<typeof send>>) =>
  outcome.ok ? outcome.response.body : outcome.message
const times = (line: string) => seen.filter((one) => one.line === line).length

describe('a second answer on one request', () => {
  it('reads it again on a connection of its own, and names it when its first answer was its own', async () => {
    const outcome = await send('/then-extra', 'twice')
    expect(bodyOf(outcome)).toBe('{"asked":"GET /then-extra"}')
    expect(times('GET /then-extra')).toBe(2)
    expect(desyncFacts(clientFor('twice').network).desync?.first).toMatchObject({
      how: 'double',
      after: 'GET /then-extra',
    })
  })

  it('names the request before it on that connection when the response nobody asked for came first', async () => {
    expect(bodyOf(await send('/before', 'ahead'))).toBe('{"asked":"GET /before"}')
    const outcome = await send('/extra-first', 'ahead')
    expect(bodyOf(outcome)).toBe('{"asked":"GET /extra-first"}')
    expect(times('GET /extra-first')).toBe(2)
    expect(desyncFacts(clientFor('ahead').network).desync?.first).toMatchObject({
      how: 'double',
      after: 'GET /before',
    })
  })

  it('never sends a write twice: it keeps the answer it took, and the blame stays with it', async () => {
    await send('/before', 'write')
    const outcome = await send('/extra-first', 'write', 'POST')
    expect(bodyOf(outcome)).toBe('[]')
    expect(times('POST /extra-first')).toBe(1)
    expect(desyncFacts(clientFor('write').network).desync?.first).toMatchObject({
      how: 'double',
      after: 'POST /extra-first',
    })
  })
})

describe('bytes on an idle kept-alive connection', () => {
  it('names the request answered there last, and sends the next request on a new connection', async () => {
    await send('/then-idle-extra', 'idle')
    // The answer was read and its connection went back to the pool (node:http frees it before the read
    // settles); one turn of the event loop later, nothing is in flight on it.
    await new Promise((turned) => setImmediate(turned))
    idleSocket?.write(extra)
    const { network } = clientFor('idle')
    for (let look = 0; look < 200 && !desyncFacts(network).desync; look++)
      await new Promise((done) => setTimeout(done, 10))
    expect(desyncFacts(network).desync?.first).toMatchObject({ how: 'idle', after: 'GET /then-idle-extra' })
    expect(bodyOf(await send('/after-idle', 'idle'))).toBe('{"asked":"GET /after-idle"}')
    const [idle, next] = ['GET /then-idle-extra', 'GET /after-idle'].map(
      (line) => seen.find((one) => one.line === line)?.socket,
    )
    expect(next).toBeDefined()
    expect(next).not.toBe(idle)
  })
})

describe('a correct server', () => {
  it('gets each request once, on one kept-alive connection, and no desync is seen', async () => {
    for (let index = 0; index < 10; index++) await send(`/correct/${index}`, 'correct')
    const lines = seen.filter((one) => one.line.startsWith('GET /correct/'))
    expect(lines.map((one) => one.line)).toEqual(
      Array.from({ length: 10 }, (_, index) => `GET /correct/${index}`),
    )
    expect(new Set(lines.map((one) => one.socket)).size).toBe(1)
    expect(desyncFacts(clientFor('correct').network)).toEqual({})
  })
})

describe('a correct server answering HEAD with the headers of a compressed body, and no body', () => {
  it('is no desync: there is nothing to decode, and the next request is answered as its own', async () => {
    for (let index = 0; index < 3; index++) await send(`/compressed-head/${index}`, 'head', 'HEAD')
    expect(bodyOf(await send('/after-head', 'head'))).toBe('{"asked":"GET /after-head"}')
    expect(desyncFacts(clientFor('head').network)).toEqual({})
  })
})
