import { afterEach, describe, expect, it } from 'vitest'
import { safeMethodProbes } from '../checks/safe-method-probes.ts'
import { type DelayingProxy, startDelayingProxy } from '../proof/delaying-proxy.ts'
import { inProcessRun } from '../proof/in-process-run.ts'
import { realisticBrokenServers } from '../proof/realistic-broken-servers.ts'
import type { StartedServer } from '../proof/serve-reference.ts'
import { runCheck } from './index.ts'

// One check that sees one defect on two operations at once: which answer comes first is timing, and
// must change nothing of what the check reports.
let server: StartedServer | undefined
let proxy: DelayingProxy | undefined
afterEach(async () => {
  await proxy?.close()
  await server?.close()
  proxy = undefined
  server = undefined
})

const headWithoutKey = realisticBrokenServers.find((one) => one.name === 'HEAD is let through without a key')

async function operationsFlagged(slowPath: RegExp): Promise<string[]> {
  if (!headWithoutKey)
    throw new Error('No realistic broken server named "HEAD is let through without a key".')
  server = await headWithoutKey.start()
  // The keyless HEAD on the slow path is answered 150 ms after the other one.
  proxy = await startDelayingProxy({
    upstream: server.baseUrl,
    delayMs: ({ method, path }) => (method === 'HEAD' && slowPath.test(path) ? 150 : 0),
  })
  const run = inProcessRun(
    { baseUrl: `${proxy.origin}${new URL(server.baseUrl).pathname}`, apiKey: server.apiKey },
    'run-check-test',
  )
  const result = await runCheck(safeMethodProbes, run)
  return result.violations
    .filter((violation) => violation.rule === 'auth')
    .map((violation) => violation.operation)
}

describe('a check that sees one defect on several operations', () => {
  it.each([
    ['the list answers last', /^\/v1\/pets(\?|$)/],
    ['the pet answers last', /^\/v1\/pets\/[^/?]+/],
  ])('reports it on each of them, whichever answers first (%s)', async (_, slowPath) => {
    // The server serves a keyless HEAD on every path that declares GET: all three are that one defect.
    expect((await operationsFlagged(slowPath)).sort()).toEqual(['GET /store/orders', 'getPet', 'listPets'])
  })
})
