import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { type MockProcess, startMockProcess } from '../mocks/http/start-mock-process.ts'
import { brokenServerKey, brokenServers } from './broken-servers.ts'

// `npm run conformance` as a user runs it: its own process, against servers on real sockets.
const root = fileURLToPath(new URL('..', import.meta.url))
const key = 'conformance-key'

function conformance(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/conformance.ts', ...args],
      { cwd: root, env: { ...process.env, ...env }, timeout: 180_000, maxBuffer: 20_000_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    )
  })
}
const reportDir = () => mkdtempSync(join(tmpdir(), 'conformance-'))

describe('npm run conformance against our mock', () => {
  let empty: MockProcess
  let thousand: MockProcess
  beforeAll(async () => {
    ;[empty, thousand] = await Promise.all([
      startMockProcess(['--api-key', key, '--pets', '0']),
      startMockProcess(['--api-key', key, '--pets', '1000']),
    ])
  })
  afterAll(async () => {
    await Promise.all([empty?.stop(), thousand?.stop()])
  })

  it('passes on an empty store, with progress per operation and JUnit, JSON and Markdown reports', async () => {
    const dir = reportDir()
    const summaryFile = join(dir, 'github-step-summary.md')
    writeFileSync(summaryFile, '# earlier step\n')
    const { code, output } = await conformance(
      ['--base-url', empty.baseUrl, '--api-key', key, '--report-dir', dir],
      { GITHUB_STEP_SUMMARY: summaryFile },
    )
    expect(code, output).toBe(0)
    expect(output).toMatch(/✓ listPets\s+\d+ passed/)
    expect(output).toMatch(/CONFORMS: \d+ passed, 0 failed/)
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'))
    expect(junit.match(/<testcase /g)?.length).toBe(report.checks.length)
    expect(junit).toContain('failures="0"')
    expect(report.coverage).toContainEqual({ pair: 'createPet 400', seen: true })
    expect(report.coverage.every((row: { seen: boolean }) => row.seen)).toBe(true)
    const markdown = readFileSync(join(dir, 'summary.md'), 'utf8')
    expect(markdown).toContain('| getPet | 404 | yes |')
    expect(readFileSync(summaryFile, 'utf8')).toBe(`# earlier step\n${markdown}\n`)
  })

  it('passes on a store of 1,000 pets', async () => {
    const { code, output } = await conformance([
      '--base-url',
      thousand.baseUrl,
      '--api-key',
      key,
      '--report-dir',
      reportDir(),
    ])
    expect(code, output).toBe(0)
  })

  it('creates nothing with --read-only, and still passes', async () => {
    const health = async () => (await (await fetch(`${thousand.origin}/__mock/health`)).json()).pets
    const before = await health()
    const { code, output } = await conformance([
      '--base-url',
      thousand.baseUrl,
      '--api-key',
      key,
      '--read-only',
      '--report-dir',
      reportDir(),
    ])
    expect(code, output).toBe(0)
    expect(await health()).toBe(before)
  })

  it('passes with --via-prism, Prism’s proxy finding no violation', async () => {
    const { code, output } = await conformance([
      '--base-url',
      empty.baseUrl,
      '--api-key',
      key,
      '--via-prism',
      '--report-dir',
      reportDir(),
    ])
    expect(code, output).toBe(0)
    expect(output).toContain('through Prism’s validating proxy')
  })

  it('takes the target from CONFORMANCE_BASE_URL and CONFORMANCE_API_KEY', async () => {
    const { code, output } = await conformance(['--read-only', '--report-dir', reportDir()], {
      CONFORMANCE_BASE_URL: thousand.baseUrl,
      CONFORMANCE_API_KEY: key,
    })
    expect(code, output).toBe(0)
  })
})

describe('npm run conformance against a broken server', () => {
  const server = brokenServers.find((candidate) => candidate.name === 'create gives every pet the same id')
  let http: Awaited<ReturnType<typeof serveHttp>>
  beforeAll(async () => {
    if (!server) throw new Error('The broken server this test uses is gone; pick another.')
    http = await serveHttp(server.build(), { port: 0, host: '127.0.0.1' })
  })
  afterAll(() => http?.close())

  it('exits 1 and shows each failed check with the request sent and the response received', async () => {
    const dir = reportDir()
    const { code, output } = await conformance([
      '--base-url',
      `${http.origin}/v1`,
      '--api-key',
      brokenServerKey,
      '--report-dir',
      dir,
    ])
    expect(code, output).toBe(1)
    expect(output).toContain('DOES NOT CONFORM')
    expect(output).toMatch(/✗ stateful links › two creates get different ids/)
    expect(output).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/v1\/pets/)
    expect(output).toMatch(/< 201/)
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<failure/)
  })

  it('exits 1 through Prism too', async () => {
    const { code, output } = await conformance([
      '--base-url',
      `${http.origin}/v1`,
      '--api-key',
      brokenServerKey,
      '--via-prism',
      '--report-dir',
      reportDir(),
    ])
    expect(code, output).toBe(1)
  })
})

describe('npm run conformance refuses to run without a usable target', () => {
  it('exits 2 naming the unreachable server', async () => {
    const { code, output } = await conformance([
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--api-key',
      key,
      '--report-dir',
      reportDir(),
    ])
    expect(code).toBe(2)
    expect(output).toContain('Cannot reach http://127.0.0.1:9/v1/pets')
  })

  it('exits 2 for a missing key, a bad URL or an unknown option', async () => {
    expect(
      (await conformance(['--base-url', 'http://127.0.0.1:9/v1'], { CONFORMANCE_API_KEY: '' })).code,
    ).toBe(2)
    expect((await conformance(['--base-url', 'not-a-url', '--api-key', key])).code).toBe(2)
    const unknown = await conformance(['--bogus'])
    expect(unknown.code).toBe(2)
    expect(unknown.output).toContain('Usage: npm run conformance')
  })
})
