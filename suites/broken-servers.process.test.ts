import { afterAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { brokenServerKey, brokenServers, correctServers } from './proof/broken-servers.ts'
import { runConformanceInThread } from './proof/conformance-in-thread.ts'

// The proof of the suite, a whole run for each server: first a server without the defect must pass, then
// each broken server must fail with its own expected finding, reported once (at most 3 findings).
const findingsPerServer: number[] = []

async function checkServer(handle: Parameters<typeof serveHttp>[0]) {
  const http = await serveHttp(handle, { port: 0, host: '127.0.0.1' })
  try {
    return await runConformanceInThread({ baseUrl: `${http.origin}/v1`, apiKey: brokenServerKey })
  } finally {
    await http.close()
  }
}

describe('the suite judges servers by their defects', () => {
  it('passes the same mock without a defect', async () => {
    const { code, output, report } = await checkServer(
      createMockApi({ apiKeys: [brokenServerKey], pets: 30 }).handle,
    )
    expect(code, output).toBe(0)
    expect(report?.findings).toEqual([])
  })

  it('passes, with a warning each, a mock whose Errors come as application/problem+json and whose router answers 404 to PATCH', async () => {
    const mock = createMockApi({ apiKeys: [brokenServerKey], pets: 30 }).handle
    const { code, output, report } = await checkServer((request) => {
      if (request.method === 'PATCH')
        return {
          status: 404,
          headers: { 'content-type': 'application/json' },
          body: '{"code":"no_route","message":"No such route.","status":404}',
        }
      const response = mock(request)
      return response.status < 400
        ? response
        : { ...response, headers: { ...response.headers, 'content-type': 'application/problem+json' } }
    })
    expect(report?.findings, output).toEqual([])
    expect(code, output).toBe(0)
    expect(report?.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Error responses come as application/problem+json'),
        expect.stringContaining('was refused with 404, not 405'),
      ]),
    )
  })

  it.concurrent.each(correctServers.map((server) => [server.behaviour, server] as const))(
    'passes a correct server that %s',
    async (_, server) => {
      const { code, output, report } = await checkServer(server.build())
      expect(report?.findings, output).toEqual([])
      expect(code, output).toBe(0)
    },
  )

  it.concurrent.each(brokenServers.map((server) => [server.defect, server] as const))(
    'finds: %s',
    async (_, server) => {
      const { code, output, report } = await checkServer(server.build())
      expect(code, output).toBe(1)
      expect(report, `no report was written:\n${output}`).toBeDefined()
      const findings = report?.findings ?? []
      findingsPerServer.push(findings.length)
      const summary = findings.map(
        (finding) => `${finding.rule} on ${finding.operations.join('+')}: ${finding.where}`,
      )
      expect(
        findings.some(
          (finding) =>
            finding.rule === server.expectedFinding.rule &&
            finding.operations.includes(server.expectedFinding.operation),
        ),
        `expected ${server.expectedFinding.rule} on ${server.expectedFinding.operation}; found:\n${summary.join('\n')}`,
      ).toBe(true)
      expect(
        findings.length,
        `one defect, reported at its root; found:\n${summary.join('\n')}`,
      ).toBeLessThanOrEqual(server.expectedFinding.only ? 1 : 3)
    },
  )

  it('keeps at least 25 broken servers, each with a unique name', () => {
    expect(brokenServers.length).toBeGreaterThanOrEqual(25)
    expect(new Set(brokenServers.map((server) => server.name)).size).toBe(brokenServers.length)
  })

  afterAll(() => {
    const sorted = [...findingsPerServer].sort((a, b) => a - b)
    const median = sorted[Math.floor(sorted.length / 2)]
    console.log(
      `Findings per broken server: median ${median}, max ${sorted.at(-1)} over ${sorted.length} servers`,
    )
  })
})
