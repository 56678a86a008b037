import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JournalEntry } from '../core/request-journal.ts'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'
import { serveHttp } from './serve-http.ts'

// npm start's latency and fault flags on a real socket, and the transport carrying faults out.
const key = 'conditions-key'
const auth = { authorization: `Bearer ${key}` }
let mock: MockProcess

beforeAll(async () => {
  mock = await startMockProcess([
    '--api-key',
    key,
    '--latency',
    'getPet=120',
    '--fault-rate',
    'createPet=1',
    '--fault-kinds',
    '503',
    '--log',
  ])
})
afterAll(async () => {
  expect(await mock.stop()).toBe(0)
})

const journal = async () =>
  ((await (await fetch(`${mock.origin}/__mock/requests`)).json()) as { requests: JournalEntry[] }).requests

describe('npm start with --latency and --fault-rate per operation', () => {
  it('delays only the operation given a latency', async () => {
    const started = performance.now()
    expect((await fetch(`${mock.baseUrl}/pets/1`, { headers: auth })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(115)
    expect((await fetch(`${mock.baseUrl}/pets?limit=1`, { headers: auth })).status).toBe(200)
    const entries = await journal()
    expect(entries.slice(-2).map((entry) => [entry.path, entry.latencyMs])).toEqual([
      ['/v1/pets/1', 120],
      ['/v1/pets', 0],
    ])
  })

  it('faults every create with the one kind given, marks it in the header and the log, storing nothing', async () => {
    const health = async () =>
      ((await (await fetch(`${mock.origin}/__mock/health`)).json()) as { pets: number }).pets
    const before = await health()
    const created = await fetch(`${mock.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Never stored","categoryId":1}',
    })
    expect(created.status).toBe(503)
    expect(created.headers.get('x-mock-fault')).toBe('503')
    expect(await health()).toBe(before)
    await expect.poll(() => mock.output()).toContain('POST /v1/pets -> 503 [fault: 503]')
  })

  it('starts in the scenario --scenario names, and says so', async () => {
    const empty = await startMockProcess(['--scenario', 'empty'])
    try {
      expect(empty.output()).toContain('(0 pets, seed 20301205, scenario empty)')
      const health = await (await fetch(`${empty.origin}/__mock/health`)).json()
      expect(health).toMatchObject({ pets: 0, scenario: 'empty' })
    } finally {
      expect(await empty.stop()).toBe(0)
    }
  })

  it('refuses a malformed --latency with a usage error naming the forms it takes', async () => {
    await expect(startMockProcess(['--latency', 'soon'])).rejects.toThrow(
      /--latency must be milliseconds such as 300/,
    )
  })
})

describe('the node:http adapter carrying out a fault', () => {
  it('holds a request that is never answered only until the server closes, then drops it', async () => {
    const server = await serveHttp(() => ({ status: 0, headers: {}, fault: 'timeout' }), {
      port: 0,
      host: '127.0.0.1',
    })
    const socket = connect(server.port, '127.0.0.1')
    const closed = new Promise<string>((resolve) => {
      let received = ''
      socket.on('data', (chunk) => {
        received += chunk
      })
      socket.on('close', () => resolve(received))
    })
    socket.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await new Promise((resolve) => setTimeout(resolve, 100))
    await server.close()
    expect(await closed).toBe('')
  })

  it('cuts a body short: the full Content-Length is declared, half the bytes arrive, the connection ends', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(1000) })
    const server = await serveHttp(
      () => ({ status: 200, headers: { 'content-type': 'application/json' }, body, fault: 'truncate' }),
      {
        port: 0,
        host: '127.0.0.1',
      },
    )
    const received = await new Promise<string>((resolve) => {
      let text = ''
      const socket = connect(server.port, '127.0.0.1', () =>
        socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      )
      socket.on('data', (chunk) => {
        text += chunk
      })
      socket.on('close', () => resolve(text))
    })
    await server.close()
    const [head = '', sent = ''] = received.split('\r\n\r\n')
    expect(head).toMatch(new RegExp(`content-length: ${body.length}`, 'i'))
    expect(sent).toBe(body.slice(0, body.length / 2))
  })
})
