import { describe, expect, it } from 'vitest'
import { nearMissCredentials } from '../values/near-miss-credentials.ts'
import { decodeText } from './decoded-text.ts'
import { redactedMarker, Secrets } from './secrets.ts'

const apiKey = 'sk_live_Q7f3Zp9W'
const hex = (code: number, width = 2) => code.toString(16).padStart(width, '0')
const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')

/** The printable bytes of a dump line's text column, `.` for the rest. */
const printable = (bytes: Buffer) =>
  [...bytes].map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('')
const hexOf = (bytes: Buffer) => [...bytes].map((byte) => hex(byte))
const linesOf = (bytes: Buffer) =>
  Array.from({ length: Math.ceil(bytes.length / 16) }, (_, line) => bytes.subarray(line * 16, line * 16 + 16))
const hexdumpC = (bytes: Buffer) =>
  linesOf(bytes)
    .map((line, at) => {
      const digits = hexOf(line)
      const columns = `${digits.slice(0, 8).join(' ')}  ${digits.slice(8).join(' ')}`.padEnd(48)
      return `${hex(at * 16, 8)}  ${columns}  |${printable(line)}|`
    })
    .join('\n')
const xxd = (bytes: Buffer) =>
  linesOf(bytes)
    .map((line, at) => {
      const groups = (
        hexOf(line)
          .join('')
          .match(/.{1,4}/g) ?? []
      )
        .join(' ')
        .padEnd(39)
      return `${hex(at * 16, 8)}: ${groups}  ${printable(line)}`
    })
    .join('\n')
const od = (bytes: Buffer) =>
  linesOf(bytes)
    .map((line, at) => `${hex(at * 16, 6)} ${hexOf(line).join(' ').padEnd(47)}  >${printable(line)}<`)
    .join('\n')

describe('Secrets.redact', () => {
  const secrets = Secrets.forRun({ apiKey, baseUrl: 'https://deploy:p%40ss-W0rd!@staging.example/v1' })

  const keyEchoes: [string, string][] = [
    ['plain', `echo ${apiKey}`],
    ['upper case', `echo ${apiKey.toUpperCase()}`],
    ['lower case', `echo ${apiKey.toLowerCase()}`],
    ['URL-encoded', `q=${encodeURIComponent(`Bearer ${apiKey}`)}`],
    ['JSON-escaped in a body', JSON.stringify({ echoed: `Bearer ${apiKey}` })],
    ['base64', Buffer.from(apiKey).toString('base64')],
    ['base64 after one byte', Buffer.from(`x${apiKey}`).toString('base64')],
    ['base64 after two bytes', Buffer.from(`xy${apiKey}`).toString('base64')],
    ['base64url', Buffer.from(`??${apiKey}>>`).toString('base64url')],
    ['a Basic user:key', `Basic ${Buffer.from(`someone:${apiKey}`).toString('base64')}`],
    ['HTML-escaped', `k&lt;${apiKey}`],
    ['every byte percent-encoded', [...Buffer.from(apiKey)].map((byte) => `%${hex(byte)}`).join('')],
    ['percent-encoded twice', encodeURIComponent(encodeURIComponent(`${apiKey}/`))],
    ['every character a JSON \\u escape', [...apiKey].map((c) => `\\u${hex(c.charCodeAt(0), 4)}`).join('')],
    ['JSON in JSON', JSON.stringify(JSON.stringify({ a: `Bearer ${apiKey}` }))],
    [
      'every character an HTML reference',
      [...apiKey].map((c, i) => (i % 2 ? `&#${c.charCodeAt(0)};` : `&#x${hex(c.charCodeAt(0))};`)).join(''),
    ],
    [
      'with one character escaped (as Go’s html/template escapes `+`, PHP’s json_encode `/`)',
      `${apiKey.slice(0, 7)}&#95;${apiKey.slice(8)} ${apiKey.slice(0, 2)}\\${apiKey.slice(2)}`,
    ],
    ['HTML-escaped twice', `${apiKey.slice(0, 3)}&amp;#108;${apiKey.slice(4)}`],
    ['hexadecimal', Buffer.from(apiKey).toString('hex').toUpperCase()],
    [
      'alternating letter case',
      [...apiKey].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(''),
    ],
    [
      'base64 of the key in alternating case',
      Buffer.from([...apiKey].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('')).toString(
        'base64',
      ),
    ],
    [
      'a Basic user:key with the key’s case swapped (a near miss the auth checks send)',
      `Basic ${Buffer.from(`someone:${swapCase(apiKey)}`).toString('base64')}`,
    ],
    ['cut by a clip', `${'x'.repeat(30)}${apiKey.slice(0, -2)}… (2345 chars)`],
    ['cut by a clip inside an escape', `${apiKey.slice(0, -3)}%5… (2345 chars)`],
    [
      'cut by a clip inside an HTML reference (Go’s html/template)',
      `${`${'A'.repeat(20)}${apiKey.slice(0, 10)}&#${apiKey.charCodeAt(10)}`.slice(0, -1)}… (2105 chars)`,
    ],
    ['cut by a clip inside a \\u escape', `${'A'.repeat(20)}${apiKey.slice(0, 10)}\\u00… (2105 chars)`],
    ['cut by a clip inside a \\x escape', `${apiKey.slice(0, 10)}\\x… (2105 chars)`],
    ['hexadecimal cut by a clip', `${Buffer.from(apiKey).toString('hex').slice(0, 25)}… (2106 chars)`],
    ['hexadecimal, byte by byte', [...Buffer.from(apiKey)].map((byte) => hex(byte)).join(' ')],
    [
      'hexadecimal with colons, upper case',
      [...Buffer.from(apiKey)]
        .map((byte) => hex(byte))
        .join(':')
        .toUpperCase(),
    ],
    [
      'percent-encoded twice, cut by a clip after %25',
      `${'A'.repeat(9)} ${[...apiKey]
        .map((c) => `%25${hex(c.charCodeAt(0))}`)
        .join('')
        .slice(0, 5 * 15 + 3)}… (2003 chars)`,
    ],
    [
      'every character an HTML reference, cut by a clip after a whole one',
      `${[...apiKey.slice(0, 4)]
        .map((c) => `&#${c.charCodeAt(0)};`)
        .join('')
        .slice(0, -1)}… (2105 chars)`,
    ],
    [
      'Turkish upper case, every byte percent-encoded',
      [...Buffer.from(apiKey.toLocaleUpperCase('tr'))].map((byte) => `%${hex(byte)}`).join(''),
    ],
    ['octal escapes', [...apiKey].map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`).join('')],
    ['upper case in a Turkish locale (Java’s toUpperCase on tr_TR)', apiKey.toLocaleUpperCase('tr')],
  ]
  it.each(keyEchoes)('leaves no trace of the key: %s', (_, text) => {
    const shown = secrets.redact(text)
    expect(shown).toContain(redactedMarker)
    expect(shown.toLowerCase()).not.toContain(apiKey.toLowerCase())
    for (const form of [Buffer.from(apiKey).toString('base64').slice(2, 10)])
      expect(shown).not.toContain(form)
    // Not one character of it: what is left of the text has none of the key's characters that it did not
    // have around the key.
    expect(shown.replace(redactedMarker, '')).not.toMatch(/[A-Za-z0-9]{3}.*Q7f|Zp9W|5a70/i)
  })

  it('leaves at most 3 characters of a key that a clip cuts anywhere in its escapes', () => {
    const key = 'sk_Hostile/Key+9z='
    const hostile = Secrets.forRun({ apiKey: key, baseUrl: 'http://127.0.0.1/v1' })
    const bytes = [...Buffer.from(key)]
    const encodings = {
      'percent-encoded twice': bytes.map((byte) => `%25${hex(byte)}`).join(''),
      'HTML references': bytes.map((byte) => `&#${byte};`).join(''),
      'JSON \\u escapes': bytes.map((byte) => `\\u${hex(byte, 4)}`).join(''),
      hexadecimal: bytes.map((byte) => hex(byte)).join(''),
    }
    // Four characters of the key in a row, once the shown text is decoded as the redactor decodes it.
    const pieces = Array.from({ length: key.length - 3 }, (_, at) => key.slice(at, at + 4).toLowerCase())
    for (const [name, encoded] of Object.entries(encodings))
      for (let cut = 1; cut < encoded.length; cut++) {
        const shown = hostile.redact(`${'A'.repeat(20)} ${encoded.slice(0, cut)}… (2003 chars)`)
        const decoded = decodeText(
          shown.replace(/[0-9a-f]{2,}(?=…)/, (run) => Buffer.from(run, 'hex').toString('latin1')),
        ).text
        expect(
          pieces.filter((piece) => decoded.includes(piece)),
          `${name}, cut at ${cut}: ${shown}`,
        ).toEqual([])
      }
  })

  it('leaves at most 3 characters of a key that a clip cuts anywhere in its base64', () => {
    const key = 'sk_Hostile/Key+9z='
    const hostile = Secrets.forRun({ apiKey: key, baseUrl: 'http://127.0.0.1/v1' })
    const encodings = {
      base64: Buffer.from(key).toString('base64'),
      'a Basic user:key': Buffer.from(`someone:${key}`).toString('base64'),
      'base64url after a byte': Buffer.from(`?${key}`).toString('base64url'),
    }
    const pieces = Array.from({ length: key.length - 3 }, (_, at) => key.slice(at, at + 4).toLowerCase())
    for (const [name, encoded] of Object.entries(encodings))
      for (let cut = 1; cut < encoded.length; cut++) {
        const shown = hostile.redact(`echoed: ${encoded.slice(0, cut)}… (2003 chars)`)
        // What is shown, read as base64 from each of its first four characters.
        const run = /[A-Za-z0-9+/_-]*(?=…)/.exec(shown)?.[0] ?? ''
        const read = [0, 1, 2, 3]
          .map((from) => Buffer.from(run.slice(from), 'base64').toString('latin1').toLowerCase())
          .join(' ')
        expect(
          pieces.filter((piece) => read.includes(piece)),
          `${name}, cut at ${cut}: ${shown}`,
        ).toEqual([])
      }
  })

  it('leaves at most 3 characters of a key that a clip cuts in a run of hexadecimal longer than it reads', () => {
    const key = 'sk_Hostile/Key+9z='
    const hostile = Secrets.forRun({ apiKey: key, baseUrl: 'http://127.0.0.1/v1' })
    const pieces = Array.from({ length: key.length - 3 }, (_, at) => key.slice(at, at + 4).toLowerCase())
    // A long text before the key: what is read before the clip starts in the middle of the run, at an even
    // or an odd digit.
    for (const before of ['x'.repeat(150), 'x'.repeat(151)]) {
      const encoded = Buffer.from(`${before}${key}`).toString('hex')
      for (let cut = 2 * before.length + 8; cut < encoded.length; cut++) {
        const shown = hostile.redact(`dump ${encoded.slice(0, cut)}… (999 chars)`)
        const run = /[0-9a-f]*(?=…)/.exec(shown)?.[0] ?? ''
        const read = [0, 1]
          .map((from) =>
            Buffer.from(run.slice(from, run.length - ((run.length - from) % 2)), 'hex').toString('latin1'),
          )
          .join(' ')
          .toLowerCase()
        expect(
          pieces.filter((piece) => read.includes(piece)),
          `cut at ${cut}: ${shown}`,
        ).toEqual([])
      }
    }
  })

  it('redacts the base64 of a key wrapped across lines, as MIME and PEM wrap it, and as JSON escapes that', () => {
    const encoded = Buffer.from(`someone:${apiKey}`).toString('base64')
    // Six characters of base64 in a row hold four bytes, at least three of them whole.
    const pieces = Array.from({ length: encoded.length - 12 - 5 }, (_, at) => encoded.slice(12 + at, 18 + at))
    // As they are, indented, escaped in a JSON string, and escaped twice (JSON inside JSON).
    for (const lineEnd of ['\n', '\r\n', '\r', '\n    ', '\\n', '\\r\\n', '\\n  ', '\\\\n'])
      for (let width = 4; width < encoded.length; width += 3) {
        const wrapped = (encoded.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join(lineEnd)
        const shown = secrets.redact(`{"pem":"${wrapped}"}`)
        const joined = shown.replace(/\\+[rn]|[\r\n ]/g, '')
        expect(
          pieces.filter((piece) => joined.includes(piece)),
          `${JSON.stringify(lineEnd)} every ${width}: ${shown}`,
        ).toEqual([])
      }
  })

  it.each([
    ['hexdump -C', hexdumpC],
    ['xxd', xxd],
    ['od -A x -t x1z', od],
  ])('redacts a key in a request dumped as %s, in its bytes and in its text column', (_, layout) => {
    const request = `GET /v1/pets HTTP/1.1\r\nHost: staging\r\nAuthorization: Bearer ${apiKey}\r\nAccept: */*\r\n\r\n`
    const dump = layout(Buffer.from(request))
    const shown = secrets.redact(`Request dump:\n${dump}\nEnd of dump.`)
    expect(shown).toContain(redactedMarker)
    // Not four characters of it in a row, in the text column or in the bytes.
    for (let at = 0; at + 4 <= apiKey.length; at++) {
      const piece = apiKey.slice(at, at + 4)
      expect(shown.replace(/\n/g, ''), `"${piece}" in the text column`).not.toContain(piece)
      expect(shown.replace(/\s+/g, '').toLowerCase()).not.toContain(Buffer.from(piece).toString('hex'))
    }
    // The rest of the dump is still there to read.
    expect(shown).toContain('GET /v1/pets HT')
  })

  it('redacts a key whose plus came back as a space (form-decoded)', () => {
    const plus = Secrets.forRun({ apiKey: 'sk_Hostile/Key+9z=', baseUrl: 'http://127.0.0.1/v1' })
    expect(plus.redact('got sk_Hostile/Key 9z= here')).toBe(`got ${redactedMarker} here`)
    expect(plus.redact(`got ${Buffer.from('sk_Hostile/Key 9z=').toString('hex')} here`)).toBe(
      `got ${redactedMarker} here`,
    )
  })

  it('redacts the hexadecimal of every near-miss key', () => {
    for (const { authorization } of nearMissCredentials(apiKey)) {
      const token = (authorization ?? '').replace(/^\S+ /, '')
      if (token.length < 4) continue
      const shown = secrets.redact(`"hexplain": "${Buffer.from(token).toString('hex')}"`)
      expect(shown, token).toContain(redactedMarker)
      expect(shown, token).not.toMatch(/736b5f6c697665/)
    }
  })

  it('redacts every near-miss key the auth checks derive and send', () => {
    for (const { authorization } of nearMissCredentials(apiKey)) {
      if (authorization === null) continue
      const shown = secrets.redact(`{"error":"bad token ${authorization}"}`)
      // What is left of the key: at most one character of it (the key with a space inside it splits one off).
      for (let length = 2; length <= apiKey.length; length++)
        for (let start = 0; start + length <= apiKey.length; start++) {
          const piece = apiKey.slice(start, start + length)
          if (length >= 4) expect(shown.toLowerCase(), authorization).not.toContain(piece.toLowerCase())
        }
    }
  })

  it('redacts the base URL’s password, encoded or not, and its user name as a word', () => {
    const shown = secrets.redact(
      'https://deploy:p%40ss-W0rd!@staging.example/v1 p@ss-W0rd! deploy, and redeployed stays',
    )
    expect(shown).not.toContain('p@ss-W0rd!')
    expect(shown).not.toContain('p%40ss-W0rd!')
    expect(shown).not.toMatch(/\bdeploy\b/)
    expect(shown).toContain('redeployed')
  })

  it('masks the values of Authorization, Proxy-Authorization, Cookie and Set-Cookie, keeping the scheme', () => {
    const shown = secrets.redact(
      [
        '  authorization: Bearer something-else',
        '  Proxy-Authorization: Basic dXNlcjpwYXNz',
        '< set-cookie: session=abc123; HttpOnly',
        '  cookie: a=b',
        '{"Authorization": "Bearer other", "x": 1}',
        '  content-type: application/json',
      ].join('\n'),
    )
    expect(shown).toBe(
      [
        '  authorization: Bearer [redacted]',
        '  Proxy-Authorization: Basic [redacted]',
        '< set-cookie: [redacted]',
        '  cookie: [redacted]',
        '{"Authorization": "Bearer [redacted]", "x": 1}',
        '  content-type: application/json',
      ].join('\n'),
    )
  })

  it('masks those headers’ values however a framework dumps them', () => {
    const dumps = [
      '{"Set-Cookie":["sid=UPSTREAMTOK5","b=UPSTREAMTOKA"]}',
      '{"Authorization":["Bearer UPSTREAMTOK6"]}',
      '{"cookie":{"sid":"UPSTREAMTOK7"}}',
      JSON.stringify(JSON.stringify({ authorization: 'Bearer UPSTREAMTOKG' })),
      "{'Authorization': 'Bearer UPSTREAMTOK8'}",
      '{"Authorization"=>"Bearer UPSTREAMTOK9"}',
      '[HTTP_AUTHORIZATION] => Bearer UPSTREAMTOKB',
      'authorization=Bearer+UPSTREAMTOKC&x=1',
    ]
    for (const dump of dumps) expect(secrets.redact(dump), dump).not.toContain('UPSTREAMTOK')
  })

  it('masks no value whose shape would take the report’s own syntax with it', () => {
    const reports = [
      `<failure message="came back as &quot;x 'cookie': {' y&quot;." type="x">it's</failure>`,
      '{"exchange": "body: \\"cookie\\": {", "name": "x", "replay": "curl \\"$CONFORMANCE_API_KEY\\""}',
      `<td>request dump: "cookie": {</td><td>"a": "b"}</td>`,
      `<failure message="x [HTTP_AUTHORIZATION] => y" type="rule">text</failure>`,
    ]
    for (const report of reports)
      expect(secrets.redact(report), report).toBe(report.replace(' => y', ' => [redacted]'))
  })

  it('masks a header line’s value up to the markup a report wrote after it, not beyond', () => {
    expect(secrets.redact('<pre>x\nset-cookie: X</pre><p>next</p>')).toBe(
      `<pre>x\nset-cookie: ${redactedMarker}</pre><p>next</p>`,
    )
  })

  it('redacts a header the user marks secret, and a secret added later, from then on', () => {
    const later = Secrets.forRun({ apiKey, baseUrl: 'http://127.0.0.1/v1' })
    expect(later.redact('x-api-token: t0ken-value')).toBe('x-api-token: t0ken-value')
    later.addHeader('X-Api-Token').add('proxy-pa55word', 'proxy credential')
    expect(later.redact('x-api-token: t0ken-value, then proxy-pa55word')).toBe(
      `x-api-token: ${redactedMarker}`,
    )
    expect(later.redact('via proxy-pa55word')).toBe(`via ${redactedMarker}`)
  })

  it('redacts a piece of the key after an escaped line break in a JSON body, and after %20', () => {
    const piece = apiKey.slice(1)
    const shown = secrets.redact(`{"message":"bad token\\n${piece}"} q=a%20${piece}`)
    expect(shown).toBe(`{"message":"bad token\\n${redactedMarker}"} q=a%20${redactedMarker}`)
  })

  it('leaves the report’s own words alone when a piece of the key is one of them', () => {
    const words = Secrets.forRun({ apiKey: 'conformance-key', baseUrl: 'http://127.0.0.1/v1' })
    const text = 'DOES NOT CONFORM: see conformance.json; npm run conformance'
    expect(words.redact(text)).toBe(text)
    expect(words.redact('token "conforma" refused')).toBe(`token "${redactedMarker}" refused`)
  })

  it('counts what it replaced, and says which secrets are too short to redact', () => {
    const counted = Secrets.forRun({ apiKey, baseUrl: 'http://127.0.0.1/v1' })
    counted.redact(`${apiKey} and ${apiKey}`)
    expect(counted.hits).toBe(2)
    expect(Secrets.forRun({ apiKey: 'k1', baseUrl: 'http://127.0.0.1/v1' }).tooShort).toEqual(['API key'])
  })

  it('redacts each string of a report as it redacts that string alone, whatever the strings beside it', () => {
    const request = `GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`
    const echoes = [
      ...keyEchoes.map(([, text]) => text),
      `Request dump:\n${hexdumpC(Buffer.from(request))}`,
      xxd(Buffer.from(request)),
      Buffer.from(`someone:${apiKey}`).toString('base64').replace(/.{6}/g, '$&\n'),
      '  authorization: Bearer something-else',
      '{"Authorization":["Bearer UPSTREAMTOK6"]}',
    ]
    // What could run on into the next string: half an escape, a dump's line, base64, a header's name.
    const neighbours = [
      'clean',
      'ends in a backslash \\',
      'ends in half an escape %2',
      'ends in half a reference &#4',
      '00000000  41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  |ABCDEFGHIJKLMNOP|',
      'QUJDREVGR0g=',
      '{"authorization":',
      'authorization: Bearer',
    ]
    for (const echo of echoes)
      for (const neighbour of neighbours) {
        const report = { before: neighbour, checks: [{ message: echo, n: 1 }], after: [neighbour] }
        expect(
          secrets.redactDeep(report),
          `${JSON.stringify(echo)} beside ${JSON.stringify(neighbour)}`,
        ).toEqual({
          before: secrets.redact(neighbour),
          checks: [{ message: secrets.redact(echo), n: 1 }],
          after: [secrets.redact(neighbour)],
        })
      }
  })

  it('gives back a report with no secret in it as it is, naming nothing', () => {
    const paths: string[] = []
    const report = { verdict: 'conforms', checks: [{ message: 'passed', requests: 3n }], seed: 'conformance' }
    expect(secrets.redactDeep(report, (path) => paths.push(path))).toBe(report)
    expect(paths).toEqual([])
  })

  it('copies a report with its strings redacted, naming where', () => {
    const paths: string[] = []
    const copy = secrets.redactDeep({ a: [`x ${apiKey}`, 'y'], b: { c: 1, d: apiKey } }, (path) =>
      paths.push(path),
    )
    expect(copy).toEqual({ a: [`x ${redactedMarker}`, 'y'], b: { c: 1, d: redactedMarker } })
    expect(paths).toEqual(['a.0', 'b.d'])
  })
})
