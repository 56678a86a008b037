import { expect, it } from 'vitest'
import { runConformanceCommand } from './conformance-command.ts'
import { nameStoredAsSent } from './realistic-broken-servers.ts'
import type { Long } from './reference-service.ts'

// A server that stores the suite's invalid creates: the acceptance is the finding, and the pets it stored
// are the run's own, listed as created and never taken for records stored before the run.
it('lists the pets a wrongly accepted invalid create stored as created by the run, and no read blames earlier data', async () => {
  const stored: Long[] = []
  const server = await nameStoredAsSent(stored).start()
  try {
    const { code, output, report } = await runConformanceCommand(
      ['--base-url', server.baseUrl, '--seed', '7'],
      { env: { CONFORMANCE_API_KEY: server.apiKey } },
    )
    expect(report, `no report was written:\n${output}`).toBeDefined()
    const findings = report?.findings ?? []
    const summary = findings.map((finding) => `${finding.rule} on ${finding.operations.join('+')}`)
    expect(summary, output.slice(-3000)).toContain('invalid-accepted on createPet')
    expect(summary.filter((line) => line.startsWith('stored-record'))).toEqual([])
    expect(stored.length).toBeGreaterThan(0)
    const ids = report?.created.ids ?? []
    expect(stored.map(String).filter((id) => !ids.includes(id))).toEqual([])
    expect(report?.created.count).toBeGreaterThanOrEqual(ids.length)
    // No finding, warning or note anywhere in the report says it.
    expect(JSON.stringify(report)).not.toContain('stored before this run')
    expect(code, output).toBe(1)
  } finally {
    await server.close()
  }
}, 180_000)
