import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { activeCharacter } from '../output/neutralise.ts'
import { workflowCommands } from '../output/workflow-commands.ts'
import { nearMissCredentials } from '../values/near-miss-credentials.ts'
import { type CommandRun, runConformanceCommand } from './conformance-command.ts'
import {
  echoKey,
  escapedForms,
  startEchoingServer,
  upstreamSession,
  urlPassword,
  urlUser,
} from './echoing-servers.ts'

// A staging server attacks the pipeline through what it echoes. Whatever it sends, none of the seven places
// the run writes to carries a secret, an active terminal sequence, an active Markdown construct or a
// workflow command a CI runner would execute.

type Sinks = Record<
  'stdout' | 'stderr' | 'summary.md' | 'step summary' | 'junit.xml' | 'conformance.json' | 'conformance.html',
  string
>

async function runAgainst(baseUrl: string, args: string[], env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'echoing-'))
  const stepSummary = join(dir, 'step-summary.md')
  writeFileSync(stepSummary, '')
  const run = await runConformanceCommand(
    ['--base-url', baseUrl, '--request-timeout', '5', '--timeout', '120', '--max-examples', '2', ...args],
    { env: { GITHUB_STEP_SUMMARY: stepSummary, ...env }, timeoutMs: 200_000, reportDir: dir },
  )
  const file = (name: string) => readFileSync(join(dir, name), 'utf8')
  const sinks: Sinks = {
    stdout: run.stdout,
    stderr: run.stderr,
    'summary.md': file('summary.md'),
    'step summary': readFileSync(stepSummary, 'utf8'),
    'junit.xml': file('junit.xml'),
    'conformance.json': file('conformance.json'),
    'conformance.html': file('conformance.html'),
  }
  return { run, sinks }
}

/**
 * Every form of a secret a reader could recover it from: the secret and its pieces in any case, URL-encoded,
 * any eight characters of it (what a clip leaves), four characters of it in each escaped form the server
 * sends (escapedForms), and any eight characters of its base64 (case matters there) at each alignment, as
 * a `user:secret` Basic credential carries it, the secret in swapped case (a near miss the auth checks
 * send) included.
 */
function secretForms(secret: string, pieces: string[]): { caseless: string[]; exact: string[] } {
  const swapped = [...secret].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')
  const windows = (text: string, size: number, step = 1) =>
    [...text].flatMap((_, at) =>
      at % step === 0 && at + size <= text.length ? [text.slice(at, at + size)] : [],
    )
  const base64Of = (value: string, offset: number) =>
    Buffer.from(`${'u:'.slice(0, offset)}${value}`).toString('base64')
  const base64 = [0, 1, 2].flatMap((offset) => [
    // Any eight characters of the secret's own (what a clip or a line break leaves of it: six bytes),
    // away from the bytes around it.
    ...[secret, swapped].flatMap((value) => windows(base64Of(value, offset).slice(4, -4), 8)),
    // Ten from the start of each piece's: a piece may begin with what is not secret (`Bearer` glued to the
    // key), and a clip may leave three characters of the key after it.
    ...pieces.map((value) => base64Of(value, offset).slice(4, 14)),
  ])
  const escaped = Object.values(escapedForms(secret)).flatMap((form) =>
    form.length > secret.length * 2 ? windows(form, Math.ceil((form.length / secret.length) * 4)) : [],
  )
  return {
    caseless: [secret, encodeURIComponent(secret), ...pieces, ...windows(secret, 8), ...escaped].filter(
      (form) => form.length >= 4,
    ),
    exact: [...base64, ...base64.map((b) => b.replaceAll('+', '-').replaceAll('/', '_'))].filter(
      (form) => form.length >= 8,
    ),
  }
}

function expectNoSecret(sinks: Sinks, ...secrets: { caseless: string[]; exact: string[] }[]) {
  for (const [sink, text] of Object.entries(sinks)) {
    const lower = text.toLowerCase()
    for (const { caseless, exact } of secrets) {
      for (const form of caseless)
        expect(
          lower.includes(form.toLowerCase()) ? form : undefined,
          `${sink} holds "${form}"`,
        ).toBeUndefined()
      for (const form of exact)
        expect(text.includes(form) ? form : undefined, `${sink} holds base64 "${form}"`).toBeUndefined()
    }
  }
}

function expectInert(sinks: Sinks) {
  for (const [sink, text] of Object.entries(sinks)) {
    expect(activeCharacter(text), `${sink}: an active control or bidi character`).toBeUndefined()
    expect(workflowCommands(text), `${sink}: a workflow command`).toEqual([])
  }
  for (const sink of ['summary.md', 'step summary'] as const) expectInertMarkdown(sinks[sink])
}

/** The Markdown as GitHub renders it (GFM, raw HTML kept): outside code, only what the report wrote. */
function expectInertMarkdown(markdown: string) {
  const page = micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  })
  const outsideCode = page.replace(/<pre>[\s\S]*?<\/pre>/g, '').replace(/<code>[\s\S]*?<\/code>/g, '')
  expect(outsideCode).not.toMatch(/<img|<a |<b>|<h1|<script|evil\.example|CONFORMS/i)
  expect(outsideCode.match(/<h2>/g)).toHaveLength(1)
  expect(outsideCode.match(/<details>/g)?.length).toBe(outsideCode.match(/<\/details>/g)?.length)
}

describe('a server that echoes the key and attack text into every answer', () => {
  let server: Awaited<ReturnType<typeof startEchoingServer>>
  let plain: { run: CommandRun; sinks: Sinks }
  let credentialed: { run: CommandRun; sinks: Sinks }
  beforeAll(async () => {
    server = await startEchoingServer()
    const withCredentials = server.baseUrl.replace('http://', `http://${urlUser}:${urlPassword}@`)
    ;[plain, credentialed] = await Promise.all([
      runAgainst(server.baseUrl, [], { CONFORMANCE_API_KEY: echoKey }),
      runAgainst(withCredentials, ['--api-key', echoKey], { CI: 'true', CONFORMANCE_API_KEY: '' }),
    ])
  }, 300_000)
  afterAll(() => server?.close())

  // The near-miss keys the auth checks send: each credential's tokens that hold four characters of the key.
  const nearMisses = () =>
    nearMissCredentials(echoKey).flatMap(({ authorization }) =>
      (authorization ?? '')
        .split(/[\s,"]+/)
        .filter((token) =>
          [...token].some((_, at) => at + 4 <= token.length && echoKey.includes(token.slice(at, at + 4))),
        ),
    )

  it('fails the server on its real defects, as it would without the echoes', () => {
    expect(plain.run.code, plain.run.output).toBe(1)
    const rules = plain.run.report?.findings.map((finding) => finding.rule)
    expect(rules).toContain('auth')
    expect(rules).toContain('server-error')
  })

  it('brings the echoed text into the reports, redacted and inert', () => {
    const examples = plain.run.report?.findings.map((finding) => finding.example ?? '').join('\n') ?? ''
    expect(examples).toContain('evil.example')
    expect(examples).toContain('x-request-echo: Bearer [redacted]')
    // A near-miss key, echoed in a 401's message: the finding on its body shows it.
    expect(examples).toMatch(/Invalid credentials[^\n]*\[redacted\]/)
    expect(examples).toMatch(/x-recent-credentials: \[[^\n]*\[redacted\]/)
    // Each escaped echo of the key, whole, in a header's name, and cut by the report's clip of a body.
    expect(examples).toContain(
      'percent=[redacted] json=[redacted] html=[redacted] hex=[redacted] go=[redacted] php=[redacted] octal=[redacted] dump=[redacted] wrapped=[redacted] turkish=[redacted]',
    )
    // Secret headers' values as a framework dumps the request: masked, whoever set them.
    expect(examples).toContain('"set-cookie": ["[redacted]"], "cookie": {"sid": "[redacted]"}')
    expect(examples).toContain('[HTTP_AUTHORIZATION] => Bearer [redacted]')
    expect(examples).toContain('x-seen-[redacted]: 1')
    expect(examples).toMatch(/"trace":"\.+[^"]{0,8}\[redacted\]… \(\d+ chars\)/)
    expect(plain.sinks.stdout).toContain('\\x1b[2J')
    expect(plain.sinks.stdout).toContain('\\x3a:add-mask::')
    expect(plain.run.report?.notes.filter((note) => note.startsWith('Secrets were redacted'))).toHaveLength(1)
  })

  it('writes neither the key nor any near-miss key derived from it, in any encoding, to any sink', () => {
    expectNoSecret(plain.sinks, secretForms(echoKey, nearMisses()), {
      caseless: [upstreamSession],
      exact: [],
    })
  })

  it('writes reports that stay valid JSON and JUnit XML, whatever the masking took out', async () => {
    expect(() => JSON.parse(plain.sinks['conformance.json'])).not.toThrow()
    const validation = await validateXML({
      xml: [{ fileName: 'junit.xml', contents: plain.sinks['junit.xml'] }],
      schema: [
        { fileName: 'junit.xsd', contents: readFileSync(new URL('./junit.xsd', import.meta.url), 'utf8') },
      ],
    })
    expect(validation.errors).toEqual([])
    expect(validation.valid).toBe(true)
  })

  it('leaves no active terminal sequence, Markdown construct or workflow command in any sink', () => {
    expectInert(plain.sinks)
  })

  it('keeps the base URL’s credentials and a key given on the command line out of every sink', () => {
    expect(credentialed.run.code, credentialed.run.output).not.toBe(0)
    expectNoSecret(credentialed.sinks, secretForms(echoKey, nearMisses()), secretForms(urlPassword, []), {
      caseless: [`${urlUser}:`],
      exact: [],
    })
    expectInert(credentialed.sinks)
  })

  it('warns once that --api-key on a CI runner should be CONFORMANCE_API_KEY', () => {
    expect(credentialed.sinks.stderr.match(/CONFORMANCE_API_KEY/g)).toHaveLength(1)
    expect(plain.sinks.stderr).not.toContain('Warning: --api-key')
  })

  // Bounded memory (1-byte chunks of a 4 MB body, an endless body, a 4 MB header block, many slow bodies;
  // RSS under 300 MB) is proven in ../network/bounded-memory.process.test.ts.
})
