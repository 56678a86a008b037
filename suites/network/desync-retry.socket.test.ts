import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boundedRequest, desyncFacts } from './bounded-request.ts'
import { connectionsPerOrigin } from './connections-per-origin.ts'

// A server that, the first time it is asked for a path below, writes a whole response nobody asked for on
// the connection: in the same write as its answer (`/then-extra...`), or ahead of its answer (`/extra-first`,
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
  const then = req.url?.startsWith('/then-extra')
  if (then || req.url === '/extra-first') {
    socket.cork()
    if (!then) socket.write(extra)
    respond()
    if (then) socket.write(extra)
    return void process.nextTick(() => socket.uncork())
  }
  if (req.url === '/then-idle-extra') idleSocket = socket
  // What reference D and compressing frameworks send for HEAD: the GET's headers, gzip included, no body.
  if (req.url?.startsWith('/compressed-head-with-length'))
    return void res.writeHead(405, { 'content-encoding': 'gzip', 'content-length': '20', allow: 'GET' }).end()
  if (req.url?.startsWith('/compressed-head'))
    return void res.writeHead(405, { 'content-encoding': 'gzip', allow: 'GET' }).end()
  // A body that takes its decoder a few thread-pool round trips: the read settles well after its bytes came.
  if (req.url?.startsWith('/gzipped/'))
    return void res
      .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      .end(gzipped)
  respond()
}
const gzipped = gzipSync(JSON.stringify('a'.repeat(200 * 1024)))

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    // Refused on its headers, before its body is all there: the answer is this request's, not unsolicited.
    if (req.url?.startsWith('/early'))
      return void res.writeHead(405, { allow: 'GET', 'content-type': 'application/json' }).end('[]')
    req.on('end', () => answer(req, res))
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((closed) => server.close(closed))
})

// Each test has a client of its own (a client is per run, named by the run's network options): the first
// desync turns keep-alive off for the rest of its client's run.
const networks = new Map<string, { headers: [string, string][] }>()
const clientFor = (name: string) => {
  const network = networks.get(name) ?? { headers: [['x-test', name]] }
  networks.set(name, network)
  return { requestTimeoutMs: 2000, maxResponseBytes: 1024, runDeadline: Date.now() + 30_000, network }
}
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

describe('a correct server answering early or with a HEAD that states a length', () => {
  it('is no desync: a write refused before its body is all sent, a HEAD with Content-Length and gzip', async () => {
    const write = (path: string) =>
      boundedRequest(
        `${origin}${path}`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: `"${'a'.repeat(1 << 20)}"` },
        clientFor('early'),
      )
    for (let index = 0; index < 3; index++) {
      expect(await write(`/early/${index}`)).toMatchObject({ ok: true, response: { status: 405 } })
      expect(await send(`/compressed-head-with-length/${index}`, 'early', 'HEAD')).toMatchObject({
        ok: true,
        response: { status: 405 },
      })
    }
    expect(bodyOf(await send('/after-early', 'early'))).toBe('{"asked":"GET /after-early"}')
    expect(desyncFacts(clientFor('early').network)).toEqual({})
    const early = seen.filter((one) => one.line.startsWith('HEAD /compressed-head-with-length/'))
    expect(new Set(early.map((one) => one.socket)).size).toBe(1)
  })
})

describe('a compressed answer still being decoded when its connection carries the next request', () => {
  it('is not read again for a second answer that came to that next request', async () => {
    const limits = { ...clientFor('handed-on'), maxResponseBytes: 512 * 1024 }
    const get = (path: string) => boundedRequest(`${origin}${path}`, { method: 'GET', headers: {} }, limits)
    // As below: the queued read gets the first connection freed, and its answer brings a second one.
    const reads = Array.from({ length: connectionsPerOrigin }, (_, index) =>
      get(`/gzipped/handed-on-${index}`),
    )
    const queued = get('/then-extra-queued')
    const outcomes = await Promise.all([...reads, queued])
    expect(outcomes.map(bodyOf).at(-1)).toBe('{"asked":"GET /then-extra-queued"}')
    const queuedSocket = seen.find((one) => one.line === 'GET /then-extra-queued')?.socket
    const readSockets = seen.filter((one) => one.line.startsWith('GET /gzipped/handed-on-'))
    expect(readSockets.map((one) => one.socket)).toContain(queuedSocket)
    expect(readSockets.length).toBe(connectionsPerOrigin)
    expect(times('GET /then-extra-queued')).toBe(2)
    expect(desyncFacts(limits.network).desync?.first).toMatchObject({
      how: 'double',
      after: 'GET /then-extra-queued',
    })
  })
})

describe('a correct server closing nothing while a compressed answer is still being decoded', () => {
  it('is no desync when the next request on that connection is a HEAD whose answer ends it', async () => {
    const limits = { ...clientFor('decoding'), maxResponseBytes: 512 * 1024 }
    const get = (path: string, method = 'GET') =>
      boundedRequest(`${origin}${path}`, { method, headers: {} }, limits)
    // As many reads as the pool has connections take every one, so the HEAD waits for the first one freed, which
    // node:http hands it as soon as that read's bytes came, before its body is decoded. Its answer has no
    // length (node:http's server answers HEAD so), so node:http's client closes the connection after it.
    const reads = Array.from({ length: connectionsPerOrigin }, (_, index) =>
      get(`/gzipped/before-head-${index}`),
    )
    const head = get('/compressed-head/queued', 'HEAD')
    const outcomes = await Promise.all([...reads, head])
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.response.status : outcome.message))).toEqual([
      ...Array.from({ length: connectionsPerOrigin }, () => 200),
      405,
    ])
    const headSocket = seen.find((one) => one.line === 'HEAD /compressed-head/queued')?.socket
    const readSockets = seen
      .filter((one) => one.line.startsWith('GET /gzipped/before-head-'))
      .map((one) => one.socket)
    expect(readSockets).toContain(headSocket)
    expect(readSockets.length).toBe(connectionsPerOrigin)
    expect(desyncFacts(limits.network)).toEqual({})
  })
})
