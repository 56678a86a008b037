import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningPrism, startPrism } from './start-prism.ts'

// The real Prism binary as a proxy in front of an upstream that answers with redirects to another origin:
// the redirect is the answer, passed on as the upstream sent it, and the other origin hears nothing.
const secretHeaders = { authorization: 'Bearer prism-redirect-key-61c0', 'x-gateway-key': 'gateway-7a2e' }

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A request on node:http, which follows nothing: what Prism answered, byte for byte. */
function send(url: string, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((done, fail) => {
    const outgoing = request(url, { method, headers }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.on('end', () =>
        done({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      )
    })
    outgoing.on('error', fail)
    outgoing.end(body)
  })
}

describe('Prism’s proxy in front of an upstream that redirects', () => {
  const received: string[] = []
  let elsewhere: Server
  let upstream: Server
  let elsewhereOrigin: string
  let prism: RunningPrism
  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      received.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`)
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    })
    elsewhereOrigin = await listen(elsewhere)
    // `x-redirect: STATUS WHERE` picks the answer; without it (Prism's start-up probe), a 404.
    upstream = createServer((req, res) => {
      req.resume()
      const [status, where] = String(req.headers['x-redirect'] ?? '404 none').split(' ')
      const location =
        where === 'relative'
          ? '../pets?limit=1&x=%2F'
          : where === 'malformed'
            ? 'http://[not-a-host/pets'
            : `${elsewhereOrigin}/v1/pets?limit=1`
      res
        .writeHead(Number(status), { location, 'content-type': 'text/plain', 'x-upstream': 'kept' })
        .end('Moved: 9007199254740993')
    })
    prism = await startPrism({ mode: 'proxy', upstream: `${await listen(upstream)}/v1` })
  })
  afterAll(async () => {
    await prism?.stop()
    for (const server of [upstream, elsewhere]) server?.close()
  })

  const cases: [number, string, string][] = [301, 302, 303, 307, 308].flatMap((status) => [
    [status, 'GET', 'elsewhere'] as [number, string, string],
    [status, 'POST', 'elsewhere'] as [number, string, string],
  ])

  it.each(cases)('passes a %i to a %s on as the answer, following nothing', async (status, method, where) => {
    const body = method === 'POST' ? JSON.stringify({ name: 'Rex', categoryId: 1 }) : undefined
    const answer = await send(
      `${prism.url}/pets`,
      method,
      {
        ...secretHeaders,
        'x-redirect': `${status} ${where}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body,
    )
    expect(answer.status).toBe(status)
    expect(answer.headers.location).toBe(`${elsewhereOrigin}/v1/pets?limit=1`)
    expect(answer.headers['x-upstream']).toBe('kept')
    expect(answer.body).toBe('Moved: 9007199254740993')
    expect(received).toEqual([])
  })

  it('keeps a relative or malformed Location as the upstream wrote it', async () => {
    const relative = await send(`${prism.url}/pets`, 'GET', {
      ...secretHeaders,
      'x-redirect': '302 relative',
    })
    expect([relative.status, relative.headers.location]).toEqual([302, '../pets?limit=1&x=%2F'])
    const malformed = await send(`${prism.url}/pets`, 'GET', {
      ...secretHeaders,
      'x-redirect': '307 malformed',
    })
    expect([malformed.status, malformed.headers.location]).toEqual([307, 'http://[not-a-host/pets'])
    expect(received).toEqual([])
  })
})
