import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { runConformanceCommand } from './proof/conformance-command.ts'
import { readMockRequest } from './proof/mock-request.ts'

// --timeout is kept by the command's outer process, not by a timer inside the run, which work that never
// yields would starve (scripts/conformance-watch.ts). The run's main thread is starved here from outside the
// code: a preload, given only to the watched run, spins forever soon after it starts.
const key = 'outside-deadline-key'
const mock = createMockApi({ apiKeys: [key], pets: 5 })
const server = createServer(async (req, res) => {
  const answer = mock.handle(await readMockRequest(req))
  res.writeHead(answer.status, answer.headers).end(answer.body)
})
let baseUrl = ''
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const spinInTheRun = `data:text/javascript,${encodeURIComponent(
  'if (process.env.ANIMAL_STORE_CONFORMANCE_WATCHED_SEED !== undefined) setTimeout(() => { for (;;) {} }, 300)',
)}`

/** Processes still alive whose environment holds `marker`: what the run left behind. */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(join('/proc', pid, 'environ'), 'latin1').includes(marker)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('a run whose own thread never yields', () => {
  it('is stopped from outside past --timeout, with an incomplete report that says why, and exit 2', async () => {
    const marker = randomUUID()
    // Without the outer process, the run would spin until this test's own bound kills it (code 143/null).
    const run = await runConformanceCommand(['--base-url', baseUrl, '--timeout', '2', '--seed', '7'], {
      env: { CONFORMANCE_API_KEY: key, NODE_OPTIONS: `--import=${spinInTheRun}`, RUN_MARKER: marker },
      timeoutMs: 45_000,
    })
    expect(run.code, run.output).toBe(2)
    expect(run.stderr).toContain('Incomplete (deadline): The run did not end within --timeout (2 s)')
    expect(run.stderr).toContain(`Reports: ${join(run.reportDir, 'summary.md')}`)
    expect(run.report?.verdict).toBe('incomplete')
    expect(run.report?.reason).toMatchObject({
      kind: 'deadline',
      message: expect.stringMatching(/did not end within --timeout \(2 s\)/),
    })
    expect(run.report?.target).toMatchObject({ baseUrl, seed: 7 })
    for (const file of ['summary.md', 'junit.xml', 'conformance.html']) {
      const text = readFileSync(join(run.reportDir, file), 'utf8')
      expect(text, file).toContain('did not end within --timeout')
      expect(text, file).not.toContain(key)
    }
    expect(run.output).not.toContain(key)
    // The whole process group went with it: nothing of the run spins on.
    expect(processesWith(marker)).toEqual([])
  })
})
