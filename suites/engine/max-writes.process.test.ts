import { afterEach, describe, expect, it } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { runConformanceCommand } from '../proof/conformance-command.ts'

const key = 'writes-key'
const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

async function correctServer() {
  const api = createMockApi({ apiKeys: [key], pets: 5 })
  const server = await serveHttp((request) => api.handle(request), { port: 0, host: '127.0.0.1' })
  stops.push(server.close)
  return { url: `${server.origin}/v1`, api }
}

describe('writes on staging, accounted for', () => {
  it('lists the ids of every pet the run created, in the JSON and the summary', async () => {
    const { url } = await correctServer()
    const { code, output, report } = await runConformanceCommand(['--base-url', url, '--timeout', '120'], {
      env: { CONFORMANCE_API_KEY: key },
    })
    expect(code, output).toBe(0)
    expect(report?.created.count).toBeGreaterThan(0)
    expect(report?.created.ids).toHaveLength(report?.created.count ?? -1)
    expect(output).toContain(`Ids: ${report?.created.ids?.slice(0, 3).join(', ')}`)
  })

  it('creates no more than --max-writes pets, skipping what would go past it and saying why', async () => {
    const { url } = await correctServer()
    const { code, output, report } = await runConformanceCommand(
      ['--base-url', url, '--timeout', '120', '--max-writes', '3'],
      { env: { CONFORMANCE_API_KEY: key } },
    )
    expect(code, output).toBe(0)
    expect(report?.created.count).toBeLessThanOrEqual(3)
    const skipped = report?.checks.filter((check) => check.outcome === 'skipped') ?? []
    expect(skipped.map((check) => check.message)).toContainEqual(expect.stringContaining('--max-writes 3'))
    expect(report?.findings).toEqual([])
  })
})
