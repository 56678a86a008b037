import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { type MockProcess, startMockProcess } from '../mocks/proof/start-mock-process.ts'
import { brokenServerKey, brokenServers } from './proof/broken-servers.ts'
import { runConformanceCommand as conformance } from './proof/conformance-command.ts'
import { startDelayingProxy } from './proof/delaying-proxy.ts'

// `npm run conformance` as a user runs it: its own process, against servers on real sockets.
const key = 'conformance-key'

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

  it('passes on an empty store, with progress per group and JUnit, JSON and Markdown reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-'))
    const summaryFile = join(dir, 'github-step-summary.md')
    writeFileSync(summaryFile, '# earlier step\n')
    const { code, output, report } = await conformance(['--base-url', empty.baseUrl], {
      env: { CONFORMANCE_API_KEY: key, GITHUB_STEP_SUMMARY: summaryFile },
      reportDir: dir,
    })
    expect(code, output).toBe(0)
    expect(output).toMatch(/✓ listPets\s+\d+ passed/)
    expect(output).toMatch(/CONFORMS: 0 findings, \d+ checks passed, /)
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8')
    expect(junit.match(/<testcase /g)?.length).toBe(report?.checks.length)
    expect(junit).toContain('failures="0"')
    expect(report?.coverage).toContainEqual({ operation: 'createPet', status: '400', state: 'seen' })
    expect(report?.coverage.every((row) => row.state === 'seen')).toBe(true)
    const markdown = readFileSync(join(dir, 'summary.md'), 'utf8')
    expect(markdown).toContain('| getPet | 404 | yes |')
    expect(readFileSync(summaryFile, 'utf8')).toBe(`# earlier step\n${markdown}\n`)
  })

  it('says how many pets it left on the target, and under which name prefix', async () => {
    const health = async () => (await (await fetch(`${thousand.origin}/__mock/health`)).json()).pets
    const before = await health()
    const { code, output, report } = await conformance(['--base-url', thousand.baseUrl], {
      env: { CONFORMANCE_API_KEY: key },
    })
    expect(code, output).toBe(0)
    expect(report?.created.count).toBe((await health()) - before)
    expect(report?.created.count).toBeGreaterThan(0)
    expect(output).toContain(
      `Created ${report?.created.count} pets on the target, named "${report?.created.namePrefix}`,
    )
  })

  it('sends each request once, though its checks begin in vitest’s thread before vitest is ready', async () => {
    // The checks start while vitest still loads; the suite file then waits for the same checks. Sent a
    // second time, they would show here as about twice the requests the run counted.
    const counting = await startDelayingProxy({ upstream: empty.origin, delayMs: 0 })
    try {
      const { code, output, report } = await conformance(['--base-url', `${counting.origin}/v1`], {
        env: { CONFORMANCE_API_KEY: key },
      })
      expect(code, output).toBe(0)
      expect(report?.traffic?.retried).toBe(0)
      // The run's own count, and the pre-flight's one request before it.
      expect(counting.counts.forwarded).toBe((report?.traffic?.requests ?? 0) + 1)
    } finally {
      await counting.close()
    }
  })

  it('creates nothing with --read-only, and shows what it did not check', async () => {
    const health = async () => (await (await fetch(`${thousand.origin}/__mock/health`)).json()).pets
    const before = await health()
    const { code, output, report, reportDir } = await conformance(
      ['--base-url', thousand.baseUrl, '--read-only'],
      {
        env: { CONFORMANCE_API_KEY: key },
      },
    )
    expect(code, output).toBe(0)
    expect(await health()).toBe(before)
    expect(report?.created.count).toBe(0)
    expect(report?.coverage).toContainEqual({
      operation: 'createPet',
      status: '201',
      state: 'not checked (read-only)',
    })
    expect(report?.totals['not-checked']).toBeGreaterThan(0)
    expect(output).toMatch(/Read-only: \d+ checks that would create pets were not run/)
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain(
      '| createPet | 201 | not checked (read-only) |',
    )
  })

  it('passes with --via-prism, Prism’s proxy finding no violation', async () => {
    const { code, output } = await conformance(['--base-url', empty.baseUrl, '--via-prism'], {
      env: { CONFORMANCE_API_KEY: key },
    })
    expect(code, output).toBe(0)
    expect(output).toContain('through Prism’s validating proxy')
  })

  it('takes the target from CONFORMANCE_BASE_URL and CONFORMANCE_API_KEY', async () => {
    const { code, output } = await conformance(['--read-only'], {
      env: { CONFORMANCE_BASE_URL: thousand.baseUrl, CONFORMANCE_API_KEY: key },
    })
    expect(code, output).toBe(0)
  })
})

describe('npm run conformance against a broken server', () => {
  const server = brokenServers.find((candidate) => candidate.name === 'create-gives-every-pet-the-same-id')
  let http: Awaited<ReturnType<typeof serveHttp>>
  beforeAll(async () => {
    if (!server) throw new Error('The broken server this test uses is gone; pick another.')
    http = await serveHttp(server.build(), { port: 0, host: '127.0.0.1' })
  })
  afterAll(() => http?.close())

  it('exits 1 and lists the defect once, with its purpose, the request sent and the response received', async () => {
    const { code, output, report, reportDir } = await conformance(['--base-url', `${http.origin}/v1`], {
      env: { CONFORMANCE_API_KEY: brokenServerKey },
    })
    expect(code, output).toBe(1)
    expect(output).toMatch(/DOES NOT CONFORM: 1 finding/)
    expect(output).toMatch(
      /✗ #1 duplicate-id-[0-9a-f]{8} \[duplicate-id\] createPet ids — on createPet; seen by \d+ check/,
    )
    expect(output).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/v1\/pets/)
    expect(output).toMatch(/< 201/)
    expect(report?.findings).toHaveLength(1)
    expect(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).toMatch(/<failure/)
    expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toContain(
      `| 1 | ${report?.findings[0]?.id} | duplicate-id | contract | \`createPet ids\` |`,
    )
  })

  it('exits 1 through Prism too, with the same finding', async () => {
    const { code, output, report } = await conformance(['--base-url', `${http.origin}/v1`, '--via-prism'], {
      env: { CONFORMANCE_API_KEY: brokenServerKey },
    })
    expect(code, output).toBe(1)
    expect(report?.findings.map((finding) => finding.rule)).toEqual(['duplicate-id'])
  })
})

describe('npm run conformance on a conforming server that sends no optional headers', () => {
  // Deprecation and Sunset are optional (required: false): a server may leave them out.
  const api = createMockApi({ apiKeys: [key], pets: 10 })
  let http: Awaited<ReturnType<typeof serveHttp>>
  beforeAll(async () => {
    http = await serveHttp(
      (request) => {
        const response = api.handle(request)
        const { deprecation: _, sunset: __, ...headers } = response.headers
        return { ...response, headers }
      },
      { port: 0, host: '127.0.0.1' },
    )
  })
  afterAll(() => http?.close())

  it('passes it directly and through Prism, noting Prism’s false positives instead of failing on them', async () => {
    const direct = await conformance(['--base-url', `${http.origin}/v1`], {
      env: { CONFORMANCE_API_KEY: key },
    })
    expect(direct.code, direct.output).toBe(0)
    const viaPrism = await conformance(['--base-url', `${http.origin}/v1`, '--via-prism'], {
      env: { CONFORMANCE_API_KEY: key },
    })
    expect(viaPrism.code, viaPrism.output).toBe(0)
    expect(viaPrism.report?.notes.join('\n')).toMatch(
      /does not send that optional header.*Prism false positive/,
    )
  })
})

/** A server on a real socket whose every answer `respond` decides. */
async function rawServer(
  respond: Parameters<typeof createServer>[1],
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(respond)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

describe('npm run conformance exits 2 for what is not the server’s fault', () => {
  it('reports its own crash as suite-error: the stack in the log, only the message in the reports', async () => {
    // A preload, in the watched run only, throws from the run's main thread as the pre-flight's request
    // starts: the options are read by then, so the reports' place is known.
    const crash = `data:text/javascript,${encodeURIComponent(
      "import dc from 'node:diagnostics_channel'; import { isMainThread } from 'node:worker_threads';" +
        'if (isMainThread && process.env.ANIMAL_STORE_CONFORMANCE_WATCHED_SEED !== undefined)' +
        " dc.subscribe('http.client.request.start', () => setImmediate(() => { throw new Error('planted crash') }))",
    )}`
    const { code, output, stderr, report, reportDir } = await conformance(
      ['--base-url', 'http://127.0.0.1:9/v1'],
      { env: { CONFORMANCE_API_KEY: key, NODE_OPTIONS: `--import=${crash}` } },
    )
    expect(code, output).toBe(2)
    expect(report?.reason).toMatchObject({
      kind: 'suite-error',
      message: 'The suite could not run: planted crash',
    })
    expect(stderr).toMatch(/Error: planted crash\n\s+at /)
    const summary = readFileSync(join(reportDir, 'summary.md'), 'utf8')
    expect(summary).toContain('planted crash')
    expect(summary).not.toMatch(/\n\s+at /)
  })

  it('names an unreachable server, in the reports too, without a usage line', async () => {
    const { code, output, report } = await conformance(['--base-url', 'http://127.0.0.1:9/v1'], {
      env: { CONFORMANCE_API_KEY: key },
    })
    expect(code, output).toBe(2)
    expect(output).toContain('Cannot run (unreachable): Cannot reach http://127.0.0.1:9/v1/pets')
    expect(output).toContain('What to do: Is the server running')
    // A runtime problem, not a usage mistake: no usage line.
    expect(output).not.toContain('Usage:')
    expect(report?.reason?.kind).toBe('unreachable')
  })

  it('names a host that does not resolve', async () => {
    const { code, output } = await conformance(['--base-url', 'http://no-such-host.invalid/v1'], {
      env: { CONFORMANCE_API_KEY: key },
    })
    expect(code, output).toBe(2)
    expect(output).toMatch(/Cannot reach .*ENOTFOUND|EAI_AGAIN/)
  })

  it('says the key was refused, instead of blaming the server', async () => {
    const mock = await serveHttp(createMockApi({ apiKeys: ['right-key'], pets: 3 }).handle, {
      port: 0,
      host: '127.0.0.1',
    })
    try {
      const { code, output } = await conformance(['--base-url', `${mock.origin}/v1`], {
        env: { CONFORMANCE_API_KEY: 'rotated-key' },
      })
      expect(code, output).toBe(2)
      expect(output).toMatch(/refused the API key .*; check it/)
      expect(output).not.toContain('DOES NOT CONFORM')
    } finally {
      await mock.close()
    }
  })

  it('says the base URL needs its version prefix when there is no API there', async () => {
    const mock = await serveHttp(createMockApi({ apiKeys: [key], pets: 3 }).handle, {
      port: 0,
      host: '127.0.0.1',
    })
    const html = await rawServer((_, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>app'),
    )
    try {
      const withoutPrefix = await conformance(['--base-url', mock.origin], {
        env: { CONFORMANCE_API_KEY: key },
      })
      expect(withoutPrefix.code, withoutPrefix.output).toBe(2)
      expect(withoutPrefix.output).toContain('must include the version prefix, e.g. https://host/v1')
      const page = await conformance(['--base-url', `${html.url}/v1`], { env: { CONFORMANCE_API_KEY: key } })
      expect(page.code, page.output).toBe(2)
      expect(page.output).toContain('with an HTML page')
    } finally {
      await Promise.all([mock.close(), html.close()])
    }
  })

  it('names a gateway’s HTML error page for what it is, not a missing /v1', async () => {
    const gateway = await rawServer((_, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>502 Bad Gateway</h1>nginx</html>'),
    )
    try {
      const run = await conformance(['--base-url', `${gateway.url}/v1`], {
        env: { CONFORMANCE_API_KEY: key },
      })
      expect(run.code, run.output).toBe(2)
      expect(run.output).toContain('The gateway in front of')
      expect(run.output).not.toContain('version prefix')
    } finally {
      await gateway.close()
    }
  })

  it('refuses a report directory it cannot write, before sending anything', async () => {
    let requests = 0
    const server = await rawServer((_, res) => {
      requests++
      res.writeHead(500).end()
    })
    const file = join(mkdtempSync(join(tmpdir(), 'conformance-')), 'a-file')
    writeFileSync(file, '')
    chmodSync(file, 0o444)
    try {
      const { code, output } = await conformance(
        ['--base-url', `${server.url}/v1`, '--report-dir', join(file, 'reports')],
        {
          env: { CONFORMANCE_API_KEY: key },
        },
      )
      expect(code, output).toBe(2)
      expect(output).toContain('Cannot write reports to')
      // Under /proc, Node 20's recursive mkdir would never return: the run must still end at once.
      const proc = await conformance(
        ['--base-url', `${server.url}/v1`, '--report-dir', '/proc/animal-store-reports'],
        {
          env: { CONFORMANCE_API_KEY: key },
          timeoutMs: 30_000,
        },
      )
      expect(proc.code, proc.output).toBe(2)
      expect(proc.output).toContain('Cannot write reports to /proc/animal-store-reports')
      expect(requests).toBe(0)
    } finally {
      await server.close()
    }
  })

  it('still fails (exit 1), not 2, a server that serves data without a key', async () => {
    const server = brokenServers.find(
      (candidate) => candidate.name === 'auth-hole-a-request-without-a-key-is-served',
    )
    if (!server) throw new Error('The broken server this test uses is gone; pick another.')
    const http = await serveHttp(server.build(), { port: 0, host: '127.0.0.1' })
    try {
      const { code, output, report } = await conformance(['--base-url', `${http.origin}/v1`], {
        env: { CONFORMANCE_API_KEY: brokenServerKey },
      })
      expect(code, output).toBe(1)
      expect(report?.findings.map((finding) => finding.rule)).toContain('auth')
    } finally {
      await http.close()
    }
  })

  it('exits 2 for a missing key, a bad URL, a bad --timeout or an unknown option', async () => {
    const noKey = await conformance(['--base-url', 'http://127.0.0.1:9/v1'], {
      env: { CONFORMANCE_API_KEY: '' },
    })
    expect(noKey.code).toBe(2)
    expect(noKey.output).toContain('CONFORMANCE_API_KEY')
    // A mistake in the options: the usage line says how the command is called.
    expect(noKey.output).toContain('Usage: animal-store-conformance')
    expect(noKey.report?.reason?.kind).toBe('options')
    // Options read, then refused: the reports still say why.
    const noCa = await conformance(['--base-url', 'http://127.0.0.1:9/v1', '--ca', '/nonexistent/ca.pem'], {
      env: { CONFORMANCE_API_KEY: key },
    })
    expect(noCa.code).toBe(2)
    expect(noCa.report?.reason).toMatchObject({ kind: 'options', message: expect.stringContaining('--ca') })
    expect(readFileSync(join(noCa.reportDir, 'summary.md'), 'utf8')).toContain('**Exit 2 (`options`):**')
    expect((await conformance(['--base-url', 'not-a-url'], { env: { CONFORMANCE_API_KEY: key } })).code).toBe(
      2,
    )
    expect((await conformance(['--timeout', 'soon'], { env: { CONFORMANCE_API_KEY: key } })).code).toBe(2)
    const unknown = await conformance(['--bogus'])
    expect(unknown.code).toBe(2)
    expect(unknown.output).toContain('Usage: animal-store-conformance')
  })

  it('never quotes a secret header’s value or a proxy password in a usage error', async () => {
    for (const misplaced of ['Tok_Secret_123', 'proxy-pass-7d1f']) {
      const { code, output } = await conformance(
        [
          '--base-url',
          'http://127.0.0.1:9/v1',
          '--header',
          'X-Api-Token: Tok_Secret_123',
          '--proxy',
          'http://user:proxy-pass-7d1f@127.0.0.1:9',
          '--seed',
          misplaced,
        ],
        { env: { CONFORMANCE_API_KEY: key } },
      )
      expect(code).toBe(2)
      expect(output).toContain('Usage error')
      expect(output).not.toContain(misplaced)
    }
  })
})
