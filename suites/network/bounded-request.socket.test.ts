import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startForwardProxy } from '../proof/forward-proxy.ts'
import { boundedRequest } from './bounded-request.ts'
import { connectionsPerOrigin } from './connections-per-origin.ts'

// A server that answers every request in 200 ms, one path that never answers, and two large bodies:
// one sent whole at once, one whose last bytes never come.
const largeBody = `[${' '.repeat(300 * 1024)}]`
let server: Server
let origin: string
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/silent') return
    if (request.url === '/large')
      return response.writeHead(200, { 'content-type': 'application/json' }).end(largeBody)
    if (request.url === '/large-unfinished') {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(largeBody.length + 1),
      })
      return response.write(largeBody)
    }
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('[]'), 200)
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((closed) => server.close(closed))
})

const limits = () => ({ requestTimeoutMs: 1000, maxResponseBytes: 1024, runDeadline: Date.now() + 30_000 })
// Ten waves over the pool's sockets: the last waits ~1.8 s for a socket, then is answered in 200 ms, within
// its 1.5 s once it has one (32 answers at once leave a loaded host's event loop some slack to need).
const waves = 10
const waitingLimits = () => ({ ...limits(), requestTimeoutMs: 1500 })

describe('the per-request deadline', () => {
  it('counts from when the request has a socket, not while it waits for one of the pool’s', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: waves * connectionsPerOrigin }, () =>
        boundedRequest(`${origin}/pets`, { method: 'GET', headers: {} }, waitingLimits()),
      ),
    )
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([])
  })

  it('still ends a request the server never answers, as slower than the deadline', async () => {
    const outcome = await boundedRequest(`${origin}/silent`, { method: 'GET', headers: {} }, limits())
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' })
    expect(outcome.ok ? '' : outcome.message).toMatch(/slower than 1 s/)
  })
})

describe('the per-request deadline through a proxy', () => {
  it('counts from when the request has a connection, not while it waits for one of the pool', async () => {
    const proxy = await startForwardProxy()
    try {
      const network = { proxy: proxy.origin }
      const outcomes = await Promise.all(
        Array.from({ length: waves * connectionsPerOrigin }, () =>
          boundedRequest(`${origin}/pets`, { method: 'GET', headers: {} }, { ...waitingLimits(), network }),
        ),
      )
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([])
      expect(proxy.seen.length).toBeGreaterThanOrEqual(1)
    } finally {
      await proxy.close()
    }
  })

  it('still ends a request the server never answers once it has its connection, as slower than the deadline', async () => {
    const proxy = await startForwardProxy()
    try {
      const network = { proxy: proxy.origin }
      const send = (path: string) =>
        boundedRequest(`${origin}${path}`, { method: 'GET', headers: {} }, { ...limits(), network })
      // Sixteen answered in 200 ms hold every connection; the silent one waits for one of them first.
      const outcomes = await Promise.all([
        ...Array.from({ length: 16 }, () => send('/pets')),
        send('/silent'),
      ])
      const silent = outcomes.at(-1)
      expect(outcomes.slice(0, 16).filter((outcome) => !outcome.ok)).toEqual([])
      expect(silent).toMatchObject({ ok: false, kind: 'timeout' })
      expect(silent?.ok ? '' : silent?.message).toMatch(/slower than 1 s/)
      expect(proxy.seen.filter((target) => target.startsWith('CONNECT')).length).toBeGreaterThanOrEqual(1)
    } finally {
      await proxy.close()
    }
  })
})

describe('a large body waiting for its turn to be read (body-gate.ts)', () => {
  it.each([
    ['directly', false],
    ['through a proxy', true],
  ])('is not counted against its own deadline while it waits, %s', async (_, proxied) => {
    const proxy = proxied ? await startForwardProxy() : undefined
    const network = proxy ? { network: { proxy: proxy.origin } } : {}
    const request = (path: string, requestTimeoutMs: number) =>
      boundedRequest(
        `${origin}${path}`,
        { method: 'GET', headers: {} },
        { requestTimeoutMs, maxResponseBytes: 4 * 1024 * 1024, runDeadline: Date.now() + 30_000, ...network },
      )
    try {
      // Two large bodies that never finish hold both slots of the gate until their 1.5 s deadline.
      const holders = [request('/large-unfinished', 1_500), request('/large-unfinished', 1_500)]
      await new Promise((done) => setTimeout(done, 300))
      // The third arrives whole at once, then waits for a slot (1 s at most) longer than its own 0.5 s.
      const waiting = await request('/large', 500)
      expect(waiting.ok ? waiting.response.body.length : waiting.message).toBe(largeBody.length)
      for (const held of await Promise.all(holders))
        expect(held).toMatchObject({ ok: false, kind: 'timeout' })
    } finally {
      await proxy?.close()
    }
  })
})
