import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boundedRequest } from './bounded-request.ts'

// What reaches the wire when a request writes a header as a client does, or leaves one out.
let server: Server
let origin: string
const received: string[][] = []
beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(request.rawHeaders)
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]')
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((closed) => server.close(closed))
})

const limits = () => ({ requestTimeoutMs: 5_000, maxResponseBytes: 1024, runDeadline: Date.now() + 30_000 })

/** The header lines of the last request the server received, as `Name: value`. */
const lastHeaders = () => {
  const raw = received.at(-1) ?? []
  return raw.flatMap((name, index) => (index % 2 === 0 ? [`${name}: ${raw[index + 1]}`] : []))
}

describe('the headers a request goes out with', () => {
  it('sends a client’s spelling of Accept-Encoding once, in its capitals, instead of the suite’s', async () => {
    const outcome = await boundedRequest(
      `${origin}/pets`,
      { method: 'GET', headers: { 'Accept-Encoding': 'gzip', Accept: '*/*' } },
      limits(),
    )
    expect(outcome.ok).toBe(true)
    const lines = lastHeaders()
    expect(lines.filter((line) => /^accept-encoding:/i.test(line))).toEqual(['Accept-Encoding: gzip'])
    expect(lines).toContain('Accept: */*')
  })

  it('leaves out Accept-Encoding altogether when the request says so, as curl and Java send none', async () => {
    const outcome = await boundedRequest(
      `${origin}/pets`,
      { method: 'GET', headers: { accept: 'application/json' }, leaveOut: ['accept-encoding'] },
      limits(),
    )
    expect(outcome.ok).toBe(true)
    expect(lastHeaders().filter((line) => /^accept-encoding:/i.test(line))).toEqual([])
  })

  it('still asks for compressed answers by default', async () => {
    await boundedRequest(`${origin}/pets`, { method: 'GET', headers: {} }, limits())
    expect(lastHeaders()).toContain('accept-encoding: gzip, deflate, br')
  })
})
