import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { contract } from '../../contract/index.ts'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'
import { peakRssBytes, type RawResponse, rawExchange } from './raw-http.ts'

// What an attacker, a web page or a heavy user did to `npm start`, replayed on real sockets
// against what `npm start` runs. Bounds are generous on purpose (a loaded 2-core CI machine must never
// flake them); the README records the figures measured.
const key = 'reliability-key'
const allowedOrigin = 'http://localhost:5173'
let mock: MockProcess
let port: number
const agent = new Agent({
  connections: 8,
  keepAliveTimeout: 10_000,
  headersTimeout: 30_000,
  bodyTimeout: 30_000,
})

beforeAll(async () => {
  mock = await startMockProcess([
    '--api-key',
    key,
    '--allowed-host',
    '.mock.test',
    '--cors-origin',
    allowedOrigin,
  ])
  port = Number(new URL(mock.origin).port)
})
afterAll(async () => {
  await agent.close()
  expect(await mock.stop()).toBe(0)
})
beforeEach(async () => {
  expect((await send('POST', '/__mock/reset', { json: { seed: 1, pets: 50 } })).status).toBe(200)
})

interface Sent {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

async function send(
  method: string,
  path: string,
  options: { json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const body = options.json === undefined ? options.body : JSON.stringify(options.json)
  const response = await request(`${mock.origin}${path}`, {
    dispatcher: agent,
    method: method as 'GET',
    headers: {
      authorization: `Bearer ${key}`,
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(body === undefined ? {} : { body }),
  })
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() }
}

const petCount = async () => JSON.parse((await send('GET', '/__mock/health')).text).pets as number

function expectError(
  response: { status: number; text?: string; body?: string },
  status: number,
  code: string,
) {
  const body = JSON.parse(response.text ?? response.body ?? '')
  expect(contract.validateSchema('Error', body)).toMatchObject({ ok: true })
  expect(body).toMatchObject({ status, code })
  expect(response.status).toBe(status)
  return body as { message: string }
}

const raw = (lines: string[], body = '') => `${lines.join('\r\n')}\r\n\r\n${body}`

describe('a memory budget', () => {
  it('answers 507 store_full once 900 KB names fill the store, keeps every pet, and stays under 1.5 GB while listing them', async () => {
    const name = 'x'.repeat(900_000)
    let created = 0
    let full: Sent | undefined
    for (let attempt = 0; attempt < 400 && !full; attempt++) {
      const answer = await send('POST', '/v1/pets', { json: { name, categoryId: 1, status: 'sold' } })
      if (answer.status === 201) created++
      else full = answer
    }
    expect(full, 'the store never said it was full').toBeDefined()
    expect(expectError(full as Sent, 507, 'store_full').message).toContain('--max-store-bytes')
    expect(created).toBeGreaterThan(50)
    expect(await petCount()).toBe(50 + created)

    // Listing them, 8 at a time: no page is ever 100 such pets, and none of them is cached.
    for (let round = 0; round < 5; round++) {
      const pages = await Promise.all(
        ['', '&status=sold'].flatMap((filter) =>
          Array.from({ length: 4 }, () => send('GET', `/v1/pets?limit=100${filter}`)),
        ),
      )
      for (const page of pages) {
        expect(page.status).toBe(200)
        expect(page.text.length).toBeLessThan(3 * 1024 * 1024)
        expect(JSON.parse(page.text).length).toBeGreaterThanOrEqual(1)
      }
    }
    const last = JSON.parse((await send('GET', `/v1/pets/${50 + created}`)).text)
    expect(last.name).toBe(name)
    const peak = peakRssBytes(mock.pid)
    console.log(
      `reliability: ${created} pets with 900 KB names stored; peak RSS ${Math.round(peak / 2 ** 20)} MB`,
    )
    expect(peak).toBeLessThan(1.5 * 1024 ** 3)
  })
})

describe('no access from other origins except what is meant', () => {
  it.each([
    ['text/plain', 'a cross-site fetch without preflight'],
    ['application/x-www-form-urlencoded', 'a cross-site form'],
  ])('refuses a reset sent as %s (%s) with 415, keeping the pets', async (contentType) => {
    const refused = await send('POST', '/__mock/reset', {
      body: '{"pets":0}',
      headers: { 'content-type': contentType },
    })
    expectError(refused, 415, 'unsupported_media_type')
    expect(await petCount()).toBe(50)
  })

  it('grants no CORS on the control endpoints, preflight included', async () => {
    const origin = 'http://evil.example'
    const preflight = await send('OPTIONS', '/__mock/reset', {
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    const health = await send('GET', '/__mock/health', { headers: { origin } })
    const reset = await send('POST', '/__mock/reset', { json: {}, headers: { origin } })
    for (const answer of [preflight, health, reset]) {
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    }
    expect(preflight.status).toBeGreaterThanOrEqual(400)
  })

  it('lets only the --cors-origin page read /v1, and says the answer varies by Origin', async () => {
    const allowed = await send('GET', '/v1/pets?limit=1', { headers: { origin: allowedOrigin } })
    expect(allowed.headers['access-control-allow-origin']).toBe(allowedOrigin)
    const other = await send('GET', '/v1/pets?limit=1', { headers: { origin: 'http://evil.example' } })
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
    expect(other.headers.vary).toBe('Origin')
    const preflight = await send('OPTIONS', '/v1/pets', {
      headers: { origin: allowedOrigin, 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe(allowedOrigin)
  })

  it.each([
    ['a rebound DNS name', 'evil.example'],
    ['a name with the port', 'attacker.test:80'],
    ['a lookalike of localhost', 'localhost.evil.example'],
  ])('refuses %s as Host with 403 host_not_allowed, on /v1 and on /__mock', async (_, host) => {
    const [listed] = await rawExchange(
      port,
      raw([`GET /v1/pets HTTP/1.1`, `Host: ${host}`, `Authorization: Bearer ${key}`, 'Connection: close']),
    )
    expect(expectError(listed as RawResponse, 403, 'host_not_allowed').message).toContain('--allowed-host')
    const [reset] = await rawExchange(
      port,
      raw(
        [
          'POST /__mock/reset HTTP/1.1',
          `Host: ${host}`,
          'Content-Type: application/json',
          'Content-Length: 10',
          'Connection: close',
        ],
        '{"pets":0}',
      ),
    )
    expectError(reset as RawResponse, 403, 'host_not_allowed')
    expect(await petCount()).toBe(50)
  })

  it.each([`127.0.0.1`, 'localhost', 'app.localhost', '[::1]', 'api.mock.test', 'mock.test'])(
    'answers Host %s (loopback, an IP, or --allowed-host)',
    async (name) => {
      const [listed] = await rawExchange(
        port,
        raw([
          `GET /v1/pets?limit=1 HTTP/1.1`,
          `Host: ${name}:${port}`,
          `Authorization: Bearer ${key}`,
          'Connection: close',
        ]),
      )
      expect(listed?.status).toBe(200)
    },
  )
})

describe('a responsive event loop', () => {
  it('keeps answering other requests while a million pets are seeded, and serves the old pets until then', async () => {
    const resetting = send('POST', '/__mock/reset', { json: { seed: 3, pets: 1_000_000 } })
    let finished = false
    void resetting.then(() => {
      finished = true
    })
    const latencies: number[] = []
    const counts = new Set<number>()
    const other = new Agent({ connections: 1 })
    try {
      while (!finished && latencies.length < 10_000) {
        const started = performance.now()
        const health = await request(`${mock.origin}/__mock/health`, { dispatcher: other })
        counts.add(JSON.parse(await health.body.text()).pets)
        latencies.push(performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    } finally {
      await other.close()
    }
    expect((await resetting).status).toBe(200)
    expect(await petCount()).toBe(1_000_000)
    const worst = Math.max(...latencies)
    console.log(
      `reliability: ${latencies.length} health checks during a 1M-pet reset, worst ${worst.toFixed(1)} ms, p50 ${latencies.sort((a, b) => a - b)[Math.floor(latencies.length / 2)]?.toFixed(1)} ms`,
    )
    expect(latencies.length).toBeGreaterThan(3)
    expect([...counts]).toContain(50)
    expect(worst).toBeLessThan(500)
  })

  it.each([
    ['createPet', '/v1/pets'],
    ['a reset', '/__mock/reset'],
  ])('refuses a 1 MiB body of nested arrays sent to %s with 400 before parsing it', async (_, path) => {
    const depth = 500_000
    const refused = await send('POST', path, {
      body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
      headers: { 'content-type': 'application/json' },
    })
    expect(expectError(refused, 400, 'invalid_body').message).toContain('nest deeper')
  })

  it('refuses a reset body over 1 MiB with 413, keeping the pets', async () => {
    const refused = await send('POST', '/__mock/reset', { json: { pets: 0, padding: 'x'.repeat(1_100_000) } })
    expectError(refused, 413, 'payload_too_large')
    expect(await petCount()).toBe(50)
  })

  it('closes a connection whose headers never finish within the 10 s header timeout (plus 1 s checks)', async () => {
    const started = performance.now()
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
      )
      let text = ''
      socket.on('data', (chunk) => {
        text += chunk
      })
      socket.on('close', () => resolve(text))
      socket.on('error', () => resolve(text))
      // Without connectionsCheckingInterval node:http may wait up to 40 s; give up well before.
      setTimeout(() => socket.destroy(), 25_000)
    })
    const seconds = (performance.now() - started) / 1000
    expect(seconds).toBeGreaterThan(9)
    expect(seconds).toBeLessThan(16)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  }, 30_000)
})

describe('transport details', () => {
  it('answers pipelined requests in order: a GET of the id a POST before it creates finds the pet', async () => {
    const body = '{"name":"Piped","categoryId":2}'
    const responses = await rawExchange(
      port,
      raw(
        [
          'POST /v1/pets HTTP/1.1',
          'Host: 127.0.0.1',
          `Authorization: Bearer ${key}`,
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        ],
        body,
      ) +
        raw([
          'GET /v1/pets/51 HTTP/1.1',
          'Host: 127.0.0.1',
          `Authorization: Bearer ${key}`,
          'Connection: close',
        ]),
    )
    expect(responses.map((response) => response.status)).toEqual([201, 200])
    expect(JSON.parse(responses[1]?.body ?? '')).toEqual({ id: 51, name: 'Piped', categoryId: 2 })
  })

  it('accepts an absolute-form target, whose authority is checked instead of Host (RFC 9112 §3.2.2)', async () => {
    const [listed] = await rawExchange(
      port,
      raw([
        `GET http://127.0.0.1:${port}/v1/pets?limit=2 HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${key}`,
        'Connection: close',
      ]),
    )
    expect(listed?.status).toBe(200)
    expect(JSON.parse(listed?.body ?? '')).toHaveLength(2)
    const [rebound] = await rawExchange(
      port,
      raw([
        'GET http://evil.example/v1/pets HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${key}`,
        'Connection: close',
      ]),
    )
    expect(rebound?.status).toBe(403)
  })

  it('answers HEAD as GET without the body: same status, same Content-Length', async () => {
    const get = await send('GET', '/v1/pets?limit=5')
    const head = await new Promise<{ status: number; length: string | undefined; body: string }>(
      (resolve, reject) => {
        const sent = httpRequest(
          `${mock.origin}/v1/pets?limit=5`,
          { method: 'HEAD', headers: { authorization: `Bearer ${key}` } },
          (response) => {
            let body = ''
            response.on('data', (chunk) => {
              body += chunk
            })
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, length: response.headers['content-length'], body }),
            )
          },
        )
        sent.on('error', reject)
        sent.end()
      },
    )
    expect(head).toEqual({ status: 200, length: String(Buffer.byteLength(get.text)), body: '' })
  })

  it('refuses two Authorization headers with 401, even when both carry the right key', async () => {
    const [refused] = await rawExchange(
      port,
      raw([
        'GET /v1/pets HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${key}`,
        `Authorization: Bearer ${key}`,
        'Connection: close',
      ]),
    )
    expect(expectError(refused as RawResponse, 401, 'unauthorized').message).toContain('More than one')
  })
})
