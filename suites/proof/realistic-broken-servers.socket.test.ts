import { afterAll, describe, expect, it } from 'vitest'
import { runDepthChecks } from './depth-checks.ts'
import { realisticBrokenServers } from './realistic-broken-servers.ts'

// The seed of the stateful model: printed, and replayable with DEPTH_SEED=<seed>.
const seed = Number(process.env.DEPTH_SEED ?? 7)
const caught: string[] = []

// Each realistic single-defect server on a real socket, against issue 9's new blocks (generated values,
// near-miss credentials and paths, the stateful model). Each must produce its expected finding.
describe(`issue 9's checks find each realistic defect (seed ${seed})`, () => {
  it.each(realisticBrokenServers.map((server) => [server.name, server] as const))(
    'finds: %s',
    async (_, broken) => {
      const server = await broken.start()
      try {
        const failures = (await runDepthChecks(server, { seed, maxExamples: 15 })).filter(
          (finding) => finding.severity === 'failure',
        )
        const { rule, operation } = broken.expectedFinding
        expect(
          failures.filter((finding) => finding.rule === rule && finding.operation === operation),
          `no ${rule} finding for ${operation}; found: ${failures.map((f) => `${f.rule}/${f.operation}`).join(', ') || 'nothing'}`,
        ).not.toEqual([])
        caught.push(broken.name)
      } finally {
        await server.close()
      }
    },
  )

  it('keeps at least 22 realistic broken servers, each named once', () => {
    const names = realisticBrokenServers.map((server) => server.name)
    expect(names.length).toBeGreaterThanOrEqual(22)
    expect(new Set(names).size).toBe(names.length)
  })

  afterAll(() => {
    console.log(
      `Depth kill rate: ${caught.length}/${realisticBrokenServers.length} realistic broken servers (seed ${seed})`,
    )
  })
})
