import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { createMockApi } from '../mocks/create-mock-api.ts'
import {
  type CommandRun,
  describePeakTree,
  peakMemoryOf,
  runConformanceCommand,
} from './proof/conformance-command.ts'
import { type ForwardProxy, startForwardProxy } from './proof/forward-proxy.ts'
import { readMockRequest } from './proof/mock-request.ts'

// Servers that try to hang or exhaust the run, on real sockets. Whatever they do, the run must end within
// its bounds, under its memory budget, with a readable report and a non-zero exit.
const key = 'hostile-key'
// The memory of the command's whole process tree, sampled from outside (proof/process-tree-memory.ts).
const budget = 250 * 1024 * 1024
const expectWithinBudget = (ran: CommandRun) =>
  expect(peakMemoryOf(ran), describePeakTree(ran)).toBeLessThan(budget)
type Answer = (req: IncomingMessage, res: ServerResponse) => Promise<void>
type Behaviour = (req: IncomingMessage, res: ServerResponse, count: number, answerLikeTheMock: Answer) => void

/**
 * A server that answers like the mock (after `honest` requests, or never) and otherwise does `behave`,
 * closed when its test ends: a concurrent test passes its own context's `finished`.
 */
async function hostile(behave: Behaviour, honest = 0, finished = onTestFinished): Promise<string> {
  // A mock of its own: runs at once against shared pets would see each other's writes.
  const mock = createMockApi({ apiKeys: [key], pets: 5 })
  const answerLikeTheMock: Answer = async (req, res) => {
    const answer = mock.handle(await readMockRequest(req))
    res.writeHead(answer.status, answer.headers).end(answer.body)
  }
  let count = 0
  const server = createServer((req, res) => {
    count++
    if (count <= honest) return void answerLikeTheMock(req, res)
    behave(req, res, count, answerLikeTheMock)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  finished(() => {
    server.closeAllConnections()
    server.close()
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

// Each attack is met twice: directly (node:http) and through a forward proxy (undici's proxy agent), whose
// path must hold every bound the direct one does.
let proxy: ForwardProxy | undefined
const run = (baseUrl: string, ...extra: string[]) =>
  runConformanceCommand(
    [
      '--base-url',
      baseUrl,
      '--request-timeout',
      '2',
      '--timeout',
      '60',
      ...(proxy ? ['--proxy', proxy.origin] : []),
      ...extra,
    ],
    { env: { CONFORMANCE_API_KEY: key }, timeoutMs: 120_000 },
  )

describe.each([
  ['directly', false],
  ['through a forward proxy', true],
])('the run stays bounded whatever the server does (%s)', (_, proxied) => {
  beforeAll(async () => {
    if (proxied) proxy = await startForwardProxy()
  })
  afterAll(async () => {
    await proxy?.close()
    proxy = undefined
  })

  it('reads at most its byte cap from a server that streams an endless body', async () => {
    const url = await hostile((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump)
      }
      res.write('[')
      pump()
    })
    const ran = await run(url)
    const { code, output, report } = ran
    expect(code, output).toBe(1)
    expect(output).toMatch(/the body is more than \d+ bytes/)
    expect(report?.findings.map((finding) => finding.rule)).toEqual(['response-too-large'])
    // Even its refusals are endless: the pre-flight blocks every check, and the run reads nothing more.
    expect(report?.traffic?.requests).toBe(0)
    expectWithinBudget(ran)
  })

  it('fails a 50 MB answer on its size, without holding it', async () => {
    const fifty = Buffer.alloc(50 * 1024 * 1024, 0x20)
    fifty[0] = 0x5b // '['
    fifty[fifty.length - 1] = 0x5d // ']'
    const url = await hostile((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(fifty.length) })
      res.end(fifty)
    })
    const ran = await run(url)
    const { code, output, report } = ran
    expect(code, output).toBe(1)
    expect(report?.findings.map((finding) => finding.rule)).toContain('response-too-large')
    expectWithinBudget(ran)
  })

  it('caps the decoded body of a gzip bomb (an endless run of compressed spaces) at its byte cap', async () => {
    // Gzip members in a row are one gzip body (RFC 1952 §2.2): each ~1 KiB member decodes to 1 MiB.
    const opening = gzipSync('[')
    const member = gzipSync(Buffer.alloc(1024 * 1024, 0x20))
    const url = await hostile((req, res, _count, answerLikeTheMock) => {
      // Only a request that asks for gzip may get it (RFC 9110 §12.5.3). The suite's own requests all do;
      // the clients that send no Accept-Encoding (curl, Java) get the mock's answer.
      if (!String(req.headers['accept-encoding'] ?? '').includes('gzip'))
        return void answerLikeTheMock(req, res)
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      const pump = () => {
        while (!res.destroyed && res.write(member));
        if (!res.destroyed) res.once('drain', pump)
      }
      res.write(opening)
      pump()
    })
    const ran = await run(url)
    const { code, output, report } = ran
    expect(code, output).toBe(1)
    expect(output).toMatch(/more than \d+ bytes once decoded/)
    expect(report?.findings.map((finding) => finding.rule)).toContain('response-too-large')
    expectWithinBudget(ran)
  })

  it('judges a server whose bodies nest a million levels deep on its bodies, never as the suite failing', async () => {
    // Two megabytes of `[`: JSON.parse reads it, and a recursive walk of the value overflows the stack.
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`
    const url = await hostile((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(deep)
    }, 1)
    const { code, output, report } = await run(url)
    expect(code, output).toBe(1)
    expect(report?.checks.filter((check) => check.outcome === 'errored')).toEqual([])
    expect(report?.findings.map((finding) => finding.where)).toContain(
      'response bodies nest deeper than 256 levels',
    )
  })

  // Concurrent from here: runs that spend their time waiting out their bounds (the trickle, the silence,
  // the deadline), each against a server and a mock of its own. The proofs above stay one at a time: they
  // measure the command's memory, or parse megabytes against a 2 s request timeout.
  it.concurrent('gives up on a server that trickles its body, reporting it once', async ({
    onTestFinished,
  }) => {
    const url = await hostile(
      (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('  ')), 500)
        res.on('close', () => clearInterval(timer))
      },
      0,
      onTestFinished,
    )
    const { code, output, report } = await run(url)
    expect(code, output).toBe(1)
    expect(output).toMatch(/no complete response within 2000 ms/)
    expect(report?.findings.map((finding) => finding.rule)).toEqual(['no-response'])
    expect(report?.totals.blocked).toBeGreaterThan(0)
  })

  it.concurrent('stops waiting on a server that answers a few requests and then never again', async ({
    onTestFinished,
  }) => {
    const url = await hostile(() => {}, 6, onTestFinished)
    const { code, output, report } = await run(url)
    expect(code, output).toBe(1)
    expect(report?.findings.map((finding) => finding.rule)).toContain('no-response')
    expect(output).toContain('the server stopped answering')
  })

  it.concurrent('reports a server that closes the connection mid-response', async ({ onTestFinished }) => {
    const url = await hostile(
      (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
        res.write('[{"id":1,')
        setTimeout(() => res.socket?.destroy(), 20)
      },
      1,
      onTestFinished,
    )
    const { code, output, report } = await run(url)
    expect(code, output).toBe(1)
    expect(output).toMatch(/the connection closed mid-body/)
    expect(report?.findings.map((finding) => finding.rule)).toEqual(['no-response'])
  })

  it.concurrent('exits 2 at the run’s deadline, naming the checks still pending', async ({
    onTestFinished,
  }) => {
    const url = await hostile(() => {}, 1, onTestFinished)
    const { code, output, report } = await runConformanceCommand(
      ['--base-url', url, '--request-timeout', '30', '--timeout', '3'],
      { env: { CONFORMANCE_API_KEY: key }, timeoutMs: 60_000 },
    )
    expect(code, output).toBe(2)
    expect(output).toContain('Still pending when the run’s deadline passed:')
    expect(output).toMatch(/deadline \(3 s\) passed with \d+ checks pending/)
    expect(report?.verdict).toBe('incomplete')
    expect(report?.pending.length).toBeGreaterThan(0)
  })
})

// A response nobody asked for, written on a kept-alive connection after an answer: the next request sent on
// that connection takes it as its answer, and every answer after it on that connection is shifted by one.
// Only the direct path is watched (connection-watch.ts); undici, behind a proxy, has its own pool.
// Concurrent: each run's server, mock and injected responses are its own.
describe('a server that writes responses nobody asked for', () => {
  const unasked = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'

  /** Answers like the mock; after the answers `when` picks, writes a whole response on the connection. */
  const injecting = (when: (count: number) => boolean, finished: typeof onTestFinished) =>
    hostile(
      (req, res, count, answerLikeTheMock) => {
        // The server's response lets go of its socket once written: the socket is taken beforehand.
        const { socket } = req
        res.on('finish', () => {
          if (when(count)) setTimeout(() => socket.destroyed || socket.write(unasked), 30)
        })
        void answerLikeTheMock(req, res)
      },
      0,
      finished,
    )

  it.concurrent('reports it once, as unsolicited-response, never as the defects the shifted answers suggest', async ({
    onTestFinished,
  }) => {
    const url = await injecting(() => true, onTestFinished)
    const { code, output, report } = await run(url)
    expect(code, output).toBe(1)
    expect(report?.findings.map((finding) => finding.rule)).toEqual(['unsolicited-response'])
    expect(report?.findings[0]?.message).toContain('nobody asked for')
    // Every check that read a shifted answer is set aside by this one finding. How many did depends on
    // whether a connection was used again within the 30 ms before the unasked bytes came: timing, which
    // no verdict may depend on.
    expect(report?.findings[0]?.blocked.length).toBe(report?.totals.blocked)
    expect(JSON.stringify(report)).not.toContain('"connections"')
  })

  it.concurrent('reports a single response nobody asked for, and only that, naming a request it came after', async ({
    onTestFinished,
  }) => {
    // The requests each connection carried, in order, how many of them it had answered, and where on its
    // connection the response went: after the last answered, which need not be the last request received
    // (the next one may have arrived in the 30 ms, its answer not yet written).
    const carried = new Map<Socket, string[]>()
    const answered = new Map<Socket, number>()
    let written: { socket: Socket; after: number } | undefined
    const url = await hostile(
      (req, res, count, answerLikeTheMock) => {
        const { socket } = req
        const lines = carried.get(socket) ?? []
        carried.set(socket, [...lines, `${req.method} ${req.url}`])
        res.on('finish', () => {
          answered.set(socket, (answered.get(socket) ?? 0) + 1)
          if (count !== 20) return
          setTimeout(() => {
            if (socket.destroyed) return
            written = { socket, after: (answered.get(socket) ?? 0) - 1 }
            socket.write(unasked)
          }, 30)
        })
        void answerLikeTheMock(req, res)
      },
      0,
      onTestFinished,
    )
    const { code, output, report } = await run(url)
    expect(code, output).toBe(1)
    expect(report?.findings.map((finding) => finding.rule)).toEqual(['unsolicited-response'])
    // The request answered last on that connection when the bytes were written, or, when the next request
    // was already on its way, one after it there (HTTP/1.1 cannot tell the bytes from that one's answer).
    const named = /after its answer to (.+?)[.,] /.exec(report?.findings[0]?.message ?? '')?.[1]
    expect(written).toBeDefined()
    const candidates = written ? (carried.get(written.socket) ?? []).slice(written.after) : []
    expect(candidates, report?.findings[0]?.message).toContain(named)
  })

  it('names the request whose answer the response nobody asked for followed, not the read that took it', async () => {
    // Once, ahead of its answer to a read sent on a kept-alive connection: the response owed to nobody,
    // late after the request before it on that connection. Corked, so both leave in one write and the
    // suite reads them together, whatever the schedule.
    const lastOn = new WeakMap<Socket, string>()
    let marked: { line: string; before: string } | undefined
    const mock = createMockApi({ apiKeys: [key], pets: 5 })
    const url = await hostile(async (req, res, count) => {
      const { socket } = req
      const line = `${req.method} ${req.url}`
      const before = lastOn.get(socket)
      lastOn.set(socket, line)
      const answer = mock.handle(await readMockRequest(req))
      // The extra response must differ from the read's own answer, or nothing could tell them apart.
      const own = answer.status === 200 && answer.body === '[]'
      if (marked || count < 20 || req.method !== 'GET' || before === undefined || before === line || own)
        return void res.writeHead(answer.status, answer.headers).end(answer.body)
      marked = { line, before }
      socket.cork()
      socket.write(unasked)
      res.writeHead(answer.status, answer.headers).end(answer.body)
      process.nextTick(() => socket.uncork())
    })
    const { code, output, report } = await run(url)
    expect(code, output).toBe(1)
    expect(marked).toBeDefined()
    expect(report?.findings.map((finding) => finding.rule)).toEqual(['unsolicited-response'])
    expect(report?.findings[0]?.message).toContain(`after its answer to ${marked?.before}.`)
  })

  it.concurrent('passes a server that answers 408 on a connection left idle and closes it, as RFC 9110 allows', async ({
    onTestFinished,
  }) => {
    let closingNotices = 0
    const idle = new Map<Socket, ReturnType<typeof setTimeout>>()
    const url = await hostile(
      (req, res, _, answerLikeTheMock) => {
        const { socket } = req
        clearTimeout(idle.get(socket))
        res.on('finish', () => {
          idle.set(
            socket,
            setTimeout(() => {
              if (socket.destroyed) return
              closingNotices++
              socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
            }, 20),
          )
        })
        void answerLikeTheMock(req, res)
      },
      0,
      onTestFinished,
    )
    const { code, output, report } = await run(url)
    expect(code, output).toBe(0)
    expect(report?.findings).toEqual([])
    expect(closingNotices).toBeGreaterThan(0)
  })
})
