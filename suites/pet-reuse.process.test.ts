import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { type RunningHttpServer, serveHttp } from '../mocks/http/serve-http.ts'
import { type CommandRun, runConformanceCommand } from './proof/conformance-command.ts'

// Staging that does not fill up, through the command users run: one stateful mock, empty at first, checked
// again and again as a pipeline does. Runs are sequential (each test uses what the one before left).
const apiKey = 'pet-reuse-key'
let http: RunningHttpServer
const runs: CommandRun[] = []

const check = (extra: string[] = []) =>
  runConformanceCommand(['--base-url', `${http.origin}/v1`, '--seed', '7', '--quiet', ...extra], {
    env: { CONFORMANCE_API_KEY: apiKey },
  })
const servedById = (run: CommandRun) =>
  run.report?.checks.find((result) => result.name === 'serves a pet by its id: 200 with that pet')

beforeAll(async () => {
  http = await serveHttp(createMockApi({ apiKeys: [apiKey], pets: 0 }).handle, { port: 0, host: '127.0.0.1' })
})
afterAll(() => http?.close())

describe('checking the same staging run after run', () => {
  it('on a first run, finds nothing tagged, reuses nothing and creates what the reading checks need', async () => {
    const first = await check()
    runs.push(first)
    expect(first.code, first.output).toBe(0)
    expect(first.report?.created.tagged).toEqual({ seen: 0, atLeast: false })
    expect(first.report?.created.reused).toBeUndefined()
    expect(servedById(first)?.outcome).toBe('passed')
  }, 180_000)

  it('on the next run, counts the first run’s pets, reuses one of them and creates fewer', async () => {
    const [first] = runs
    const second = await check()
    runs.push(second)
    expect(second.code, second.output).toBe(0)
    const created = (run: CommandRun | undefined) => run?.report?.created.count ?? Number.NaN
    expect(created(second)).toBeGreaterThan(0)
    expect(created(second)).toBeLessThan(created(first))
    const reused = second.report?.created.reused ?? []
    expect(reused).toHaveLength(1)
    expect(first?.report?.created.ids).toContain(reused[0])
    // Re-read and judged like any answer: getPet served it as the list showed it.
    expect(servedById(second)?.outcome).toBe('passed')
    expect(second.report?.created.tagged?.seen).toBeGreaterThan(0)
    expect(second.report?.warnings.join('\n')).not.toMatch(/first page/)
    for (const text of [second.stdout, readFileSync(join(second.reportDir, 'summary.md'), 'utf8')])
      expect(text).toContain(`Reading checks reused pet ${reused[0]} instead of creating one.`)
    expect(readFileSync(join(second.reportDir, 'conformance.html'), 'utf8')).toContain(
      `Reading checks reused pet ${reused[0]} instead of creating one.`,
    )
  }, 180_000)

  it('with --max-created-total below what earlier runs left, creates nothing and exits 2 with how to clean up', async () => {
    const guarded = await check(['--max-created-total', '10'])
    expect(guarded.code, guarded.output).toBe(2)
    expect(guarded.report?.created.count).toBe(0)
    expect(guarded.report?.created.maxTotal).toBe(10)
    expect(guarded.stderr).toMatch(
      /Incomplete \(too-many-created\): The target already holds (at least )?\d+ pets named "conformance-…"/,
    )
    expect(guarded.stderr).toContain('more than --max-created-total 10')
    expect(guarded.stderr).toContain('Cleaning up')
    expect(readFileSync(join(guarded.reportDir, 'summary.md'), 'utf8')).toContain(
      'More than --max-created-total 10: nothing was created',
    )
    // The checks that only read still ran, on the pets already there.
    expect(servedById(guarded)?.outcome).toBe('passed')
  }, 180_000)
})
