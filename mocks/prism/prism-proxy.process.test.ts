import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../create-mock-api.ts'
import { type RunningHttpServer, serveHttp } from '../http/serve-http.ts'
import { parseViolations } from './sl-violations.ts'
import { type RunningPrism, startPrism } from './start-prism.ts'

// The real Prism binary as a validating proxy (no --errors: responses pass untouched, violations are
// listed in sl-violations) in front of our mock on a real socket.
const key = 'proxy-key'
const auth = { authorization: `Bearer ${key}` }
const json = { ...auth, 'content-type': 'application/json' }

describe('Prism’s validating proxy in front of our mock', () => {
  let upstream: RunningHttpServer
  let prism: RunningPrism
  beforeAll(async () => {
    upstream = await serveHttp(createMockApi({ apiKeys: [key], pets: 5 }).handle, {
      port: 0,
      host: '127.0.0.1',
    })
    prism = await startPrism({ mode: 'proxy', upstream: `${upstream.origin}/v1` })
  })
  afterAll(async () => {
    await prism?.stop()
    await upstream?.close()
  })

  const through = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const response = await fetch(`${prism.url}${path}`, { method, headers, body: body ?? null })
    await response.body?.cancel()
    return { status: response.status, violations: parseViolations(response.headers.get('sl-violations')) }
  }

  it('finds no violation in a session over every operation and every declared status', async () => {
    const newPet = JSON.stringify({ name: 'Proxy', categoryId: 2, status: 'available' })
    const session: [string, string, Record<string, string>, string | undefined, number][] = [
      ['GET', '/pets', auth, undefined, 200],
      ['GET', '/pets?limit=2&status=available', auth, undefined, 200],
      ['GET', '/pets', { ...auth, prefer: 'code=401' }, undefined, 401],
      ['POST', '/pets', json, newPet, 201],
      ['POST', '/pets', json, JSON.stringify({ name: 'No status', categoryId: 3 }), 201],
      ['POST', '/pets', { ...json, prefer: 'code=400' }, newPet, 400],
      ['POST', '/pets', { ...json, prefer: 'code=401' }, newPet, 401],
      ['GET', '/pets/6', auth, undefined, 200],
      ['GET', '/pets/123456', auth, undefined, 404],
      ['GET', '/pets/1', { ...auth, prefer: 'code=401' }, undefined, 401],
    ]
    const seen = []
    for (const [method, path, headers, body, status] of session) {
      const result = await through(method, path, headers, body)
      seen.push({ request: `${method} ${path}`, status: result.status, violations: result.violations })
      expect(result.status, `${method} ${path}`).toBe(status)
    }
    expect(seen.filter((exchange) => exchange.violations.length > 0)).toEqual([])
  })

  it('finds no response error when requests break the contract, only the undeclared 400 of listPets', async () => {
    const broken: [string, string, Record<string, string>, string | undefined, string[]][] = [
      ['GET', '/pets', {}, undefined, []],
      // listPets declares no 400: the mock's answer to a bad limit is a choice the contract leaves open.
      ['GET', '/pets?limit=500', auth, undefined, ['Warning: Unable to match the returned status code']],
      ['POST', '/pets', json, '{"name":"No category"}', []],
      ['POST', '/pets', json, '{"name":"x","categoryId":"1"}', []],
      ['GET', '/pets/not-a-number', auth, undefined, []],
    ]
    for (const [method, path, headers, body, expected] of broken) {
      const { violations } = await through(method, path, headers, body)
      const onResponse = violations
        .filter((violation) => violation.location[0] === 'response')
        .map((violation) => `${violation.severity}: ${violation.message}`)
      expect(onResponse.length, `${method} ${path}: ${onResponse.join('; ')}`).toBe(expected.length)
      expected.forEach((start, index) => {
        expect(onResponse[index]).toContain(start)
      })
    }
  })
})

describe('Prism’s validating proxy in front of a server that breaks the contract', () => {
  let broken: ReturnType<typeof createServer>
  let prism: RunningPrism
  beforeAll(async () => {
    // Ids as strings and no categoryId: what a careless backend might send.
    broken = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify([{ id: '1', name: 'Rex' }]))
    })
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve))
    const { port } = broken.address() as AddressInfo
    prism = await startPrism({ mode: 'proxy', upstream: `http://127.0.0.1:${port}/v1` })
  })
  afterAll(async () => {
    await prism?.stop()
    await new Promise((resolve) => broken?.close(resolve))
  })

  it('reports the broken response body in sl-violations', async () => {
    const response = await fetch(`${prism.url}/pets`, { headers: auth })
    const violations = parseViolations(response.headers.get('sl-violations'))
    expect(response.status).toBe(200)
    expect(violations.some((violation) => violation.location[0] === 'response')).toBe(true)
  })
})
