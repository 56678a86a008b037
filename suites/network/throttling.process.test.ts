import { describe, expect, it, type onTestFinished } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { runConformanceCommand } from '../proof/conformance-command.ts'
import { startThrottlingProxy, type ThrottlingProxyOptions } from '../proof/throttling-proxy.ts'

// A correct server (the mock) behind a rate limit of our own that behaves as nginx `limit_req` does, on
// 127.0.0.1: throttling is the network's answer, and must never become a finding.
const key = 'throttled-key'

/** A mock of its own behind a limit of its own, closed when the test that asked for it ends. */
async function behindLimit(limit: Omit<ThrottlingProxyOptions, 'upstream'>, finished: typeof onTestFinished) {
  const api = createMockApi({ apiKeys: [key], pets: 5 })
  const server = await serveHttp((request) => api.handle(request), { port: 0, host: '127.0.0.1' })
  const proxy = await startThrottlingProxy({ ...limit, upstream: server.origin })
  finished(async () => {
    await proxy.close()
    await server.close()
  })
  return { url: `${proxy.origin}/v1`, proxy }
}

const run = (url: string, ...extra: string[]) =>
  runConformanceCommand(['--base-url', url, '--timeout', '240', ...extra], {
    env: { CONFORMANCE_API_KEY: key },
    timeoutMs: 300_000,
  })

// Concurrent: each test is a whole run that spends its time waiting out its own limit (a mock and a proxy
// of its own, counted apart), so four of them at once wait side by side rather than one after another.
describe.concurrent('a correct server behind a rate limit conforms, and the report says what throttling cost', () => {
  it('waits out 429 with Retry-After and sends the same request again', async ({ onTestFinished }) => {
    const { url, proxy } = await behindLimit(
      { rate: 20, burst: 40, status: 429, retryAfter: 1 },
      onTestFinished,
    )
    // --progress: stderr is no terminal here, so it is asked for; it counts the throttled answers.
    const { code, output, report } = await run(url, '--progress')
    expect(code, output).toBe(0)
    expect(output).toMatch(/checks \d+\/\d+ · \d+ requests · \d+ throttled · [\d.]+ s/)
    expect(report?.findings).toEqual([])
    expect(proxy.counts.refused).toBeGreaterThan(0)
    expect(report?.traffic?.throttled).toBeGreaterThan(0)
    expect(report?.traffic?.retried).toBe(report?.traffic?.throttled)
    expect(report?.traffic?.secondsWaited).toBeGreaterThan(0)
    expect(output).toMatch(/Traffic: \d+ requests, \d+ throttled, \d+ retried, [\d.]+ s waited/)
  }, 180_000)

  it('backs off from nginx’s default 503 page without Retry-After', async ({ onTestFinished }) => {
    const { url, proxy } = await behindLimit({ rate: 20, burst: 40, status: 503 }, onTestFinished)
    const { code, output, report } = await run(url)
    expect(code, output).toBe(0)
    expect(report?.findings).toEqual([])
    expect(proxy.counts.refused).toBeGreaterThan(0)
    expect(report?.traffic?.throttled).toBe(proxy.counts.refused)
  }, 180_000)

  it('paces from the first request under --rate-limit, so nothing is refused', async ({ onTestFinished }) => {
    const { url, proxy } = await behindLimit({ rate: 40, burst: 10, status: 429 }, onTestFinished)
    const { code, output, report } = await run(url, '--rate-limit', '2400/m')
    expect(code, output).toBe(0)
    expect(proxy.counts.refused).toBe(0)
    expect(report?.traffic?.throttled).toBe(0)
  }, 180_000)

  it('exits 2, never 1, when staging keeps refusing beyond the budget, and suggests a rate', async ({
    onTestFinished,
  }) => {
    // One request a minute: the pre-flight gets through, then every request is refused.
    const { url } = await behindLimit({ rate: 1 / 60, burst: 0, status: 429, retryAfter: 1 }, onTestFinished)
    const { code, output, report } = await run(url)
    expect(code, output).toBe(2)
    expect(output).toMatch(
      /Incomplete \(throttled\): staging is throttling: \d+ of \d+ requests refused\.\nWhat to do: Try --rate-limit \d+\/s/,
    )
    expect(report?.findings).toEqual([])
    expect(report?.reason?.kind).toBe('throttled')
    expect(report?.verdict).toBe('incomplete')
  }, 180_000)
})
