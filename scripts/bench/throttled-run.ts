// Full conformance runs behind a throttling proxy, once per way of refusing, held to a time budget.
import { findFreePort } from '../../mocks/local-port.ts'
import { startThrottlingProxy, type ThrottlingProxyOptions } from '../../suites/proof/throttling-proxy.ts'
import { timedConformanceRun } from './conformance-run.ts'
import { launchMock } from './launch-server.ts'

export interface ThrottledRun {
  /** How the proxy refuses: `429 + Retry-After: 1`, `429`, `503 page`. */
  limit: string
  exitCode: number
  findings: number
  /** Requests the run made (each once, however often resent) and the resends. */
  requests: number
  retried: number
  throttled: number
  wallSeconds: number
  /** 1.2 × (requests ÷ rate) + 5 s: what the run may take behind the limit. */
  budgetSeconds: number
}

const rate = 20
const burst = 40

const limits: { limit: string; options: Pick<ThrottlingProxyOptions, 'status' | 'retryAfter'> }[] = [
  { limit: '429 + Retry-After: 1', options: { status: 429, retryAfter: 1 } },
  { limit: '429, no Retry-After', options: { status: 429 } },
  { limit: '503 HTML page, no Retry-After (nginx default)', options: { status: 503 } },
]

/**
 * A full conformance run against our mock behind a throttling proxy of our own (nginx `limit_req`
 * `rate=20r/s burst=40 nodelay`), once per way of refusing: it must pass with 0 findings within
 * 1.2 × (requests ÷ 20) + 5 s. The proxy runs in this process, so the run is a child process awaited
 * without blocking it.
 */
export async function measureThrottledRuns(): Promise<ThrottledRun[]> {
  const runs: ThrottledRun[] = []
  for (const { limit, options } of limits) {
    const port = await findFreePort()
    const mock = await launchMock(port)
    const proxy = await startThrottlingProxy({
      upstream: `http://127.0.0.1:${port}`,
      rate,
      burst,
      ...options,
    })
    try {
      const { wallSeconds, exitCode, report } = await timedConformanceRun(`${proxy.origin}/v1`, [], 600_000)
      const requests = report.traffic?.requests ?? 0
      runs.push({
        limit,
        exitCode,
        findings: report.findings.length,
        requests,
        retried: report.traffic?.retried ?? 0,
        throttled: report.traffic?.throttled ?? 0,
        wallSeconds,
        budgetSeconds: 1.2 * (requests / rate) + 5,
      })
    } finally {
      await proxy.close()
      await mock.stop()
    }
  }
  return runs
}
