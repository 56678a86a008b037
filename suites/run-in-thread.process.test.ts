import { createServer } from 'node:http'
import { describe, expect, it, onTestFinished } from 'vitest'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { runConformanceCommand } from './proof/conformance-command.ts'
import { runConformanceInThread } from './proof/conformance-in-thread.ts'
import { closeNow, listenOnLoopback } from './proof/listen-on-loopback.ts'
import { readMockRequest } from './proof/mock-request.ts'
import { realisticBrokenServers } from './proof/realistic-broken-servers.ts'
import type { ConformanceReport } from './reporting/index.ts'

// runConformance with `inThisThread` stands in for the command in the proofs that run one whole run per
// server (realistic, broken, reference): these pin that it judges as the command does, and that runs
// sharing a thread share nothing a verdict reads.
const key = 'in-thread-key'

/** A mock of its own on a real socket; `unasked` writes a response nobody asked for after every answer. */
async function mockServer(unasked = false): Promise<string> {
  const mock = createMockApi({ apiKeys: [key], pets: 12 })
  const server = createServer(async (req, res) => {
    const answer = mock.handle(await readMockRequest(req))
    const { socket } = req
    if (unasked)
      res.on('finish', () =>
        setTimeout(
          () =>
            socket.destroyed ||
            socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]'),
          20,
        ),
      )
    res.writeHead(answer.status, answer.headers).end(answer.body)
  })
  onTestFinished(() => closeNow(server))
  return `${await listenOnLoopback(server)}/v1`
}

/** What a report judged, without what varies between any two runs (times, memory, names of created pets). */
const judged = (report: ConformanceReport | undefined) => ({
  verdict: report?.verdict,
  findings: report?.findings.map(({ id, rule, operations, where }) => ({ id, rule, operations, where })),
  checks: report?.checks.map(({ group, name, outcome }) => `${group} › ${name}: ${outcome}`),
  coverage: report?.coverage,
})

describe('a run in the caller’s thread', () => {
  it('judges a broken server as the command does: the same exit code, findings, ids, checks and coverage', async () => {
    const broken = realisticBrokenServers.find((server) => server.findingsAtMost === undefined)
    const server = await broken?.start()
    if (!broken || !server) throw new Error('no realistic broken server to run')
    onTestFinished(() => server.close())
    const [command, thread] = await Promise.all([
      runConformanceCommand(['--base-url', server.baseUrl, '--seed', '11'], {
        env: { CONFORMANCE_API_KEY: server.apiKey },
      }),
      runConformanceInThread({ baseUrl: server.baseUrl, apiKey: server.apiKey, seed: 11 }),
    ])
    expect(command.code, command.output).toBe(1)
    expect(thread.code, thread.output).toBe(1)
    expect(thread.report?.findings.length).toBeGreaterThan(0)
    expect(judged(thread.report)).toEqual(judged(command.report))
  })

  it('keeps each run’s connections, traffic and desync its own, though runs share the thread', async () => {
    const [tainted, correct] = await Promise.all([
      mockServer(true).then((baseUrl) => runConformanceInThread({ baseUrl, apiKey: key, seed: 3 })),
      mockServer().then((baseUrl) => runConformanceInThread({ baseUrl, apiKey: key, seed: 3 })),
    ])
    expect(tainted.report?.findings.map((finding) => finding.rule)).toEqual(['unsolicited-response'])
    expect(correct.report?.findings, correct.output).toEqual([])
    expect(correct.code).toBe(0)
    // Each counts its own requests only: the two servers were asked about as much.
    const requests = [tainted, correct].map((run) => run.report?.traffic?.requests ?? 0)
    expect(Math.min(...requests)).toBeGreaterThan(100)
    expect(Math.max(...requests)).toBeLessThan(2 * Math.min(...requests))
  })
})
