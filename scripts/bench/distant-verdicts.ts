// The proof servers judged straight and behind a proxy adding 100 ms a request: the same findings either way.
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { brokenServerKey, brokenServers, correctServers } from '../../suites/proof/broken-servers.ts'
import { runConformanceCommand } from '../../suites/proof/conformance-command.ts'
import { startDelayingProxy } from '../../suites/proof/delaying-proxy.ts'
import { realisticBrokenServers } from '../../suites/proof/realistic-broken-servers.ts'
import { referenceServers } from '../../suites/proof/reference-servers.ts'

/** One proof server's verdicts, straight and at a distance. */
export interface DistantVerdict {
  server: string
  /** Exit code and findings (`rule operations: where`, sorted), straight to the server. */
  local: { code: number; findings: string[] }
  distant: { code: number; findings: string[] }
  same: boolean
}

interface Started {
  baseUrl: string
  apiKey: string
  close(): Promise<void>
}

const mockServer = (build: () => Parameters<typeof serveHttp>[0]) => async (): Promise<Started> => {
  const http = await serveHttp(build(), { port: 0, host: '127.0.0.1' })
  return { baseUrl: `${http.origin}/v1`, apiKey: brokenServerKey, close: () => http.close() }
}

/** Every server of the proof: the reference servers, the realistic broken ones, the broken copies of the mock. */
const proofServers: { server: string; rule?: string; start: () => Promise<Started> }[] = [
  {
    server: 'our mock',
    start: mockServer(() => createMockApi({ apiKeys: [brokenServerKey], pets: 30 }).handle),
  },
  ...referenceServers.map(({ name, start }) => ({ server: name, start })),
  ...realisticBrokenServers.map(({ name, start, expectedFinding }) => ({
    server: name,
    rule: expectedFinding.rule,
    start,
  })),
  ...correctServers.map(({ name, build }) => ({ server: name, start: mockServer(build) })),
  ...brokenServers.map(({ name, build, expectedFinding }) => ({
    server: name,
    rule: expectedFinding.rule,
    start: mockServer(build),
  })),
]

/**
 * Runs each proof server's conformance run twice with the same seed, straight to it and behind a proxy
 * that holds every request `delayMs`, `atOnce` servers at a time, and compares exit codes and findings:
 * how requests were scheduled must change no verdict. `rules` keeps only the broken servers expected to
 * break one of them (and the correct ones).
 */
export async function compareDistantVerdicts(
  options: { delayMs?: number; atOnce?: number; seed?: string; rules?: string[] } = {},
): Promise<DistantVerdict[]> {
  const { delayMs = 100, atOnce = 4, seed = '7', rules } = options
  const servers = proofServers.filter(
    ({ rule }) => rules === undefined || rule === undefined || rules.includes(rule),
  )
  const verdicts: DistantVerdict[] = []
  let next = 0
  const worker = async () => {
    for (let index = next++; index < servers.length; index = next++) {
      const { server, start } = servers[index] as (typeof servers)[number]
      const judged = async (distant: boolean) => {
        const started = await start()
        const url = new URL(started.baseUrl)
        const proxy = distant ? await startDelayingProxy({ upstream: url.origin, delayMs }) : undefined
        try {
          const baseUrl = proxy ? `${proxy.origin}${url.pathname}` : started.baseUrl
          const run = await runConformanceCommand(['--base-url', baseUrl, '--seed', seed], {
            env: { CONFORMANCE_API_KEY: started.apiKey },
          })
          const findings = (run.report?.findings ?? [])
            .map((finding) => `${finding.rule} ${[...finding.operations].sort().join('+')}: ${finding.where}`)
            .sort()
          return { code: run.code, findings }
        } finally {
          await proxy?.close()
          await started.close()
        }
      }
      const local = await judged(false)
      const distant = await judged(true)
      const same = local.code === distant.code && local.findings.join('\n') === distant.findings.join('\n')
      verdicts[index] = { server, local, distant, same }
      console.error(
        same
          ? `same: ${server}`
          : `DIFFERENT: ${server}\n  straight exit ${local.code}: ${local.findings.join('; ')}\n  distant exit ${distant.code}: ${distant.findings.join('; ')}`,
      )
    }
  }
  await Promise.all(Array.from({ length: atOnce }, worker))
  return verdicts
}
