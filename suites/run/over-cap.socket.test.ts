import { createServer, type RequestListener, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { closeNow, listenOnLoopback } from '../proof/listen-on-loopback.ts'
import { scratchDir } from '../proof/scratch-dir.ts'
import { runConformance } from '../run-conformance.ts'

// A server whose every answer, even a refusal without a key, is over the byte cap can be judged on nothing:
// the pre-flight finds it before any check, so one finding blocks every check whatever ran first. A server
// that refuses in a few bytes is judged by the checks as any other.
const key = 'over-cap-key-7c2e'
const servers: Server[] = []
afterEach(() => Promise.all(servers.splice(0).map(closeNow)))

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  return `${await listenOnLoopback(server)}/v1`
}

const fiveMegabytes = Buffer.alloc(5 * 1024 * 1024, 0x20)
/** 5 MiB of spaces, which the suite stops reading at its 4 MiB cap. */
const overCap: RequestListener = (_, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(fiveMegabytes)
}

const judge = (baseUrl: string) =>
  runConformance({
    baseUrl,
    apiKey: key,
    seed: 5,
    reportDir: scratchDir('over-cap-'),
    print: () => {},
    inThisThread: true,
  })

describe('a server whose answers are over the byte cap', () => {
  it('answering even a refusal so: one finding, every check blocked by it, no request after the pre-flight', async () => {
    const { exitCode, report } = await judge(await serve(overCap))
    expect(exitCode).toBe(1)
    expect(report?.findings.map((finding) => [finding.rule, finding.operations])).toEqual([
      ['response-too-large', ['listPets']],
    ])
    expect(report?.findings[0]?.message).toMatch(/without a key: the body is more than 4194304 bytes/)
    expect(report?.totals.blocked).toBeGreaterThan(200)
    expect(report?.traffic?.requests).toBe(0)
  })

  it('refusing in a few bytes: judged by the checks, request after request', async () => {
    const { exitCode, report } = await judge(
      await serve((req, res) => {
        if (req.headers.authorization === `Bearer ${key}`) return overCap(req, res)
        res
          .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
          .end('{"code":"unauthorized","message":"No key.","status":401}')
      }),
    )
    expect(exitCode).toBe(1)
    expect(report?.findings.map((finding) => finding.rule)).toContain('response-too-large')
    expect(report?.traffic?.requests).toBeGreaterThan(100)
  })
})
