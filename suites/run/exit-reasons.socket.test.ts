import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { Secrets } from '../output/index.ts'
import type { ConformanceReport, exitReasonKinds } from '../reporting/index.ts'
import { type ConformanceOptions, runConformance } from '../run-conformance.ts'
import { writeUnjudgedRun } from './index.ts'

// A run that exits 2 says why where a pipeline looks: the reason's kind, message and advice in
// conformance.json, summary.md, conformance.html and junit.xml, over real sockets on 127.0.0.1.
const key = 'exit-reasons-key-4b1d'
const junitSchema = readFileSync(new URL('../proof/junit.xsd', import.meta.url), 'utf8')
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener)
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  cleanups.push(() => new Promise<void>((closed) => server.close(() => closed())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** A port nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((closed) => server.close(() => closed()))
  return `http://127.0.0.1:${port}`
}

function reportDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'exit-reasons-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

async function run(options: Partial<ConformanceOptions> & { baseUrl: string }) {
  const dir = reportDir()
  const printed: string[] = []
  const outcome = await runConformance({
    apiKey: key,
    reportDir: dir,
    timeoutSeconds: 20,
    print: (line) => printed.push(line),
    ...options,
  })
  return { outcome, dir, printed: printed.join('\n') }
}

/** The four report files, and the JSON as data. */
function reports(dir: string) {
  const read = (file: string) => readFileSync(join(dir, file), 'utf8')
  const json = JSON.parse(read('conformance.json')) as ConformanceReport
  return { json, markdown: read('summary.md'), html: read('conformance.html'), junit: read('junit.xml') }
}

async function expectReasonEverywhere(dir: string, kind: keyof typeof exitReasonKinds) {
  const { json, markdown, html, junit } = reports(dir)
  expect(json.verdict).toBe('incomplete')
  expect(json.reason?.kind).toBe(kind)
  expect(Object.keys(json.reason ?? {}).sort()).toEqual(['advice', 'kind', 'message'])
  expect(markdown).toContain(`**Exit 2 (\`${kind}\`):** `)
  expect(markdown).toContain('**What to do:**')
  expect(html).toContain(`<strong>Exit 2 (<code>${kind}</code>):</strong>`)
  expect(junit).toContain(`<testcase classname="animal-store.run" name="exit 2: ${kind}">`)
  expect(junit).toMatch(/<testsuites [^>]*errors="1"/)
  const validation = await validateXML({
    xml: [{ fileName: 'junit.xml', contents: junit }],
    schema: [{ fileName: 'junit.xsd', contents: junitSchema }],
  })
  expect(validation.errors).toEqual([])
  for (const text of [markdown, html, junit, JSON.stringify(json)]) expect(text).not.toContain(key)
  return json.reason
}

describe('a run that cannot judge the server writes its reason into every report', () => {
  it('names a server nothing answers for: unreachable', async () => {
    const { outcome, dir } = await run({ baseUrl: `${await closedPort()}/v1` })
    expect(outcome.exitCode).toBe(2)
    expect(outcome.reason?.kind).toBe('unreachable')
    const reason = await expectReasonEverywhere(dir, 'unreachable')
    expect(reason?.message).toContain('ECONNREFUSED')
    expect(reason?.advice).toContain('Is the server running')
  })

  it('names a refused key, a gateway’s error page and a missing prefix, each by its kind', async () => {
    const refusing = await serve((_, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{}'),
    )
    const gateway = await serve((_, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>502 Bad Gateway</h1>nginx</html>'),
    )
    const nothing = await serve((_, res) => res.writeHead(404).end())
    for (const [origin, kind] of [
      [refusing, 'key-refused'],
      [gateway, 'gateway-error'],
      [nothing, 'no-api'],
    ] as const) {
      const { outcome, dir } = await run({ baseUrl: `${origin}/v1` })
      expect(outcome.exitCode, kind).toBe(2)
      await expectReasonEverywhere(dir, kind)
    }
  })

  it('names bad options and a baseline it cannot use, through the output boundary', async () => {
    const noKey = await run({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: '' })
    expect(noKey.outcome.reason).toMatchObject({ kind: 'options', message: 'No API key.' })
    await expectReasonEverywhere(noKey.dir, 'options')

    // The path is quoted in the reason: as Markdown and HTML it must stay text.
    const hostile = join(reportDir(), '<img src=x onerror=alert(1)>`.json')
    const baseline = await run({ baseUrl: 'http://127.0.0.1:9/v1', baseline: hostile })
    expect(baseline.outcome.reason?.kind).toBe('baseline')
    const { markdown, html } = reports(baseline.dir)
    await expectReasonEverywhere(baseline.dir, 'baseline')
    expect(html).not.toContain('<img')
    expect(markdown).toContain('``Cannot read the baseline ')
    expect(markdown.replace(/``[^\n]*?``/g, '')).not.toContain('<img')
  })

  it('never writes a secret into the reason, even one the server’s address carries', async () => {
    const secrets = new Secrets().add('proxy-secret-77aa', 'secret header')
    const origin = (await closedPort()).replace('http://', 'http://user:url-pass-91c2@')
    const { outcome, dir, printed } = await run({ baseUrl: `${origin}/v1`, secrets })
    expect(outcome.reason?.kind).toBe('unreachable')
    const { json, markdown, html, junit } = reports(dir)
    for (const text of [markdown, html, junit, JSON.stringify(json), printed, outcome.problem ?? ''])
      expect(text).not.toContain('url-pass-91c2')
  })

  it('writes no report when the report folder is the problem, and says so', async () => {
    const { outcome } = await run({ baseUrl: 'http://127.0.0.1:9/v1', reportDir: '/proc/exit-reasons' })
    expect(outcome.reason?.kind).toBe('report-dir')
    expect(outcome.report).toBeUndefined()
  })

  it('writes the report of a run stopped from outside with its kind', async () => {
    const dir = reportDir()
    const written = writeUnjudgedRun(
      (await import('../output/index.ts')).createOutput(new Secrets().addApiKey(key), {
        stdout: () => {},
        stderr: () => {},
      }),
      {
        target: { baseUrl: 'http://127.0.0.1:9/v1', readOnly: false, viaPrism: false, seed: 7 },
        reportDir: dir,
        startedAt: new Date(),
        reason: {
          kind: 'stopped',
          message: `ended by SIGKILL with ${key} in hand.`,
          advice: 'Run it again.',
        },
      },
    )
    expect('verdict' in written && written.verdict).toBe('incomplete')
    await expectReasonEverywhere(dir, 'stopped')
  })
})
