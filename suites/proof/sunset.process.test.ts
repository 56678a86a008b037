import { afterAll, beforeAll, expect, it } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { type RunningHttpServer, serveHttp } from '../../mocks/http/serve-http.ts'
import { runConformanceCommand } from './conformance-command.ts'

// getPet's sunset is 2030-12-05. The mock (without its own date) still serves it, as a server that missed
// the removal would: as of a day past the sunset, the suite says so, by policy; before it, nothing.
const key = 'sunset-proof-key'
let http: RunningHttpServer
beforeAll(async () => {
  http = await serveHttp(createMockApi({ apiKeys: [key] }).handle, { port: 0, host: '127.0.0.1' })
})
afterAll(() => http.close())

const run = (args: string[]) =>
  runConformanceCommand(['--base-url', `${http.origin}/v1`, ...args], { env: { CONFORMANCE_API_KEY: key } })

it('reports an operation still served past its sunset as one policy finding, a warning with --policy off', async () => {
  const past = await run(['--date', '2030-12-06'])
  expect(
    past.report?.findings.map((finding) => `${finding.rule} ${finding.kind}`),
    past.output,
  ).toEqual(['served-after-sunset policy'])
  expect(past.code).toBe(1)
  expect(past.output).toContain('answered 200 on 2030-12-06, past its sunset 2030-12-05')
  const off = await run(['--date', '2030-12-06', '--policy', 'off'])
  expect(off.code, off.output).toBe(0)
  expect(off.output).toMatch(/\[policy served-after-sunset, off\]/)
}, 120_000)

it('does nothing before the sunset but say from when it judges', async () => {
  const before = await run(['--date', '2030-12-04'])
  expect(before.code, before.output).toBe(0)
  const check = before.report?.checks.find((one) => one.name.startsWith('getPet is no longer served'))
  expect([check?.outcome, check?.message]).toEqual([
    'skipped',
    'not past its sunset: judged from 2030-12-05 on (--date 2030-12-05 judges as of that day)',
  ])
}, 120_000)
