import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boundedRequest } from './bounded-request.ts'
import { startForwardProxy } from './proof/forward-proxy.ts'

// A server that answers every request in 200 ms, and one path that never answers.
let server: Server
let origin: string
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/silent') return
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

describe('the per-request deadline', () => {
  it('counts from when the request has a socket, not while it waits for one of the pool’s', async () => {
    // 128 at once over 16 sockets: the last of 8 waves waits ~1.4 s for a socket, then is answered in
    // 200 ms, well within its 1 s once it has one.
    const outcomes = await Promise.all(
      Array.from({ length: 128 }, () =>
        boundedRequest(`${origin}/pets`, { method: 'GET', headers: {} }, limits()),
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
  it('counts from when the request has a connection, not while it waits for one of the 16', async () => {
    const proxy = await startForwardProxy()
    try {
      const network = { proxy: proxy.origin }
      const outcomes = await Promise.all(
        Array.from({ length: 128 }, () =>
          boundedRequest(`${origin}/pets`, { method: 'GET', headers: {} }, { ...limits(), network }),
        ),
      )
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([])
      expect(proxy.seen.length).toBeGreaterThanOrEqual(1)
    } finally {
      await proxy.close()
    }
  })
})
