import { createServer, type RequestListener, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { safeMethodProbes } from '../checks/safe-method-probes.ts'
import { groupFindings } from '../judging/index.ts'
import { type DelayingProxy, startDelayingProxy } from '../proof/delaying-proxy.ts'
import { inProcessRun } from '../proof/in-process-run.ts'
import { closeNow, listenOnLoopback } from '../proof/listen-on-loopback.ts'
import { realisticBrokenServers } from '../proof/realistic-broken-servers.ts'
import type { StartedServer } from '../proof/serve-reference.ts'
import { type Check, runCheck } from './index.ts'

// One check that sees one defect on two operations at once: which answer comes first is timing, and
// must change nothing of what the check reports.
let server: StartedServer | undefined
let proxy: DelayingProxy | undefined
/** Plain servers a test started (`serve`), each closed when it ends. */
const plainServers: Server[] = []
afterEach(async () => {
  await proxy?.close()
  await server?.close()
  await Promise.all(plainServers.splice(0).map(closeNow))
  proxy = undefined
  server = undefined
})

/** A server of the test's own on loopback: its base URL, `/v1` included. */
async function serve(listener: RequestListener): Promise<string> {
  const plain = createServer(listener)
  plainServers.push(plain)
  return `${await listenOnLoopback(plain)}/v1`
}

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

// A pet stored wrong before the run, read by two checks at once, one through the list and one by its id:
// the first read to arrive reports it and the other is set aside by it, which is timing. The finding must
// name both operations (and keep its id) whichever arrived first.
describe('a record stored wrong, read by two operations at once', () => {
  const reading = (name: string, read: Check['run']): Check => ({ group: 'stored', name, run: read })
  const checks = [
    reading('reads the list', async ({ send }) => void (await send('listPets', { intent: 'valid' }))),
    reading(
      'reads the pet',
      async ({ send }) => void (await send('getPet', { intent: 'valid', path: { petId: 5 } })),
    ),
  ]

  async function storedRecordFinding(slowPath: RegExp) {
    const rex = { id: 5, name: 'Rex', status: 'lost' }
    const upstream = await serve((req, res) => {
      const body = JSON.stringify(req.url?.startsWith('/v1/pets/5') ? rex : [rex])
      res.writeHead(200, { 'content-type': 'application/json' }).end(body)
    })
    proxy = await startDelayingProxy({ upstream, delayMs: ({ path }) => (slowPath.test(path) ? 150 : 0) })
    const run = inProcessRun({ baseUrl: `${proxy.origin}/v1`, apiKey: 'stored-key' }, 'stored-test')
    const results = await Promise.all(checks.map((check) => runCheck(check, run)))
    const finding = groupFindings(results).find((one) => one.rule === 'stored-record')
    return { operations: [...(finding?.operations ?? [])].sort(), id: finding?.id }
  }

  it('names both operations with one id, whichever read arrived first', async () => {
    const listLast = await storedRecordFinding(/^\/v1\/pets(\?|$)/)
    await proxy?.close()
    const petLast = await storedRecordFinding(/^\/v1\/pets\/5/)
    expect(listLast.operations).toEqual(['getPet', 'listPets'])
    expect(petLast).toEqual(listLast)
  })
})

// Requests that get no answer, three in a row: whether an answer came between them is how they
// interleaved. The run is blocked as "stopped answering" only when the server does not answer at all.
describe('a server that leaves some requests unanswered', () => {
  /** Hangs up on every request `drops` picks, and answers the others with an empty list. */
  async function runAgainst(drops: (url: string) => boolean) {
    const baseUrl = await serve((req, res) => {
      if (drops(req.url ?? '')) return void req.socket.destroy()
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    })
    const run = inProcessRun({ baseUrl, apiKey: 'drop-key' }, 'drop-test')
    // Four reads of a pet at once, all hung up on: four failures in a row, however they interleave.
    const unanswered: Check = {
      group: 'dropped',
      name: 'reads four pets at once',
      run: async ({ send }) =>
        void (await Promise.allSettled(
          [1, 2, 3, 4].map((petId) => send('getPet', { intent: 'valid', path: { petId } })),
        )),
    }
    const listing: Check = {
      group: 'dropped',
      name: 'lists pets',
      run: async ({ send }) => void (await send('listPets', { intent: 'valid' })),
    }
    await runCheck(unanswered, run)
    return (await runCheck(listing, run)).outcome
  }

  it('blocks nothing while the server still answers a plain list', async () => {
    expect(await runAgainst((url) => /^\/v1\/pets\/\d/.test(url))).not.toBe('blocked')
  })

  it('blocks the rest of the run once the server answers nothing', async () => {
    expect(await runAgainst(() => true)).toBe('blocked')
  })
})

describe('a check blocked by an answer a shared step read for it', () => {
  it('names that answer’s connection among its own, so a desync found there sets the check aside too', async () => {
    // Every create answered 200 with an empty list: the run's shared pets (a fixture) cannot be made, and
    // the check that needs them is blocked by that answer without sending anything itself.
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    })
    const run = inProcessRun({ baseUrl, apiKey: 'fixture-key' }, 'fixture-test')
    const needsPets: Check = {
      group: 'fixtures',
      name: 'needs the run’s pets',
      writes: true,
      run: async ({ fixtures }) => void (await fixtures.createdPets()),
    }
    const result = await runCheck(needsPets, run)
    expect(result.outcome).toBe('blocked')
    expect(result.requests).toBe(0)
    expect(result.connections?.map(([, operation]) => operation)).toEqual(['createPet'])
  })
})
