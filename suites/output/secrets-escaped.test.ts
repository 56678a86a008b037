import { describe, expect, it } from 'vitest'
import { redactedMarker, Secrets } from './secrets.ts'

// Each secret holds `+`, `/` and `=`, and so does its base64 (`-` and `_` its base64url): the characters a
// server escapes on its own when it escapes only some.
const apiKey = 'sk_test+9z/Key=Q7~xy??'
const headerValue = 'hdr+Tok/en=Value~~xy??'
const password = 'p+ss/W0rd=!~xy??'

const secrets = Secrets.forRun({
  apiKey,
  baseUrl: `https://deploy:${encodeURIComponent(password)}@staging.example/v1`,
}).add(headerValue, 'secret header')

const kinds = {
  'the API key': apiKey,
  'a secret header’s value': headerValue,
  'a base-URL password': password,
}

const encodings: Record<string, (secret: string) => string> = {
  plain: (secret) => secret,
  base64: (secret) => Buffer.from(secret).toString('base64'),
  base64url: (secret) => Buffer.from(secret).toString('base64url'),
  hexadecimal: (secret) => Buffer.from(secret).toString('hex'),
}

const hex = (code: number, width: number) => code.toString(16).toUpperCase().padStart(width, '0')
const spellings: Record<string, (code: number) => string> = {
  'JSON \\u00XX': (code) => `\\u${hex(code, 4)}`,
  'HTML &#NN;': (code) => `&#${code};`,
  'HTML &#xNN;': (code) => `&#x${hex(code, 2)};`,
  'percent %XX': (code) => `%${hex(code, 2)}`,
}
const escapeAll = (spell: (code: number) => string) => (text: string) =>
  [...text].map((char) => spell(char.charCodeAt(0))).join('')
const escapeSome = (spell: (code: number) => string) => (text: string) =>
  text.replace(/[+/=]/g, (char) => spell(char.charCodeAt(0)))

const escapes: Record<string, (text: string) => string> = {
  'no escape': (text) => text,
  ...Object.fromEntries(
    Object.entries(spellings).flatMap(([name, spell]) => [
      [`every character as ${name}`, escapeAll(spell)],
      [`only + / = as ${name}`, escapeSome(spell)],
    ]),
  ),
}

/** Every escape of `spellings` undone, by a reader of its own (not the redactor's). */
const undoEscapes = (text: string) =>
  text
    .replace(/\\u([0-9a-f]{4})/gi, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)))
    .replace(/&#([0-9]+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/%([0-9a-f]{2})/gi, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)))

/** What a reader of `encoding` gets back from the text: each run of its alphabet decoded from each start. */
const readBack: Record<string, (text: string) => string[]> = {
  plain: (text) => [text.toLowerCase()],
  base64: (text) => decodedRuns(text, /[A-Za-z0-9+/]+/g, 4, 'base64'),
  base64url: (text) => decodedRuns(text, /[A-Za-z0-9_-]+/g, 4, 'base64url'),
  hexadecimal: (text) => decodedRuns(text, /[0-9a-f]+/gi, 2, 'hex'),
}

function decodedRuns(text: string, alphabet: RegExp, group: number, encoding: BufferEncoding): string[] {
  return [...text.matchAll(alphabet)].flatMap(([run]) =>
    Array.from({ length: group }, (_, offset) =>
      Buffer.from(run.slice(offset), encoding).toString('latin1').toLowerCase(),
    ),
  )
}

/** Every piece of `secret` as long as the shortest secret the redactor takes (4 characters), lower-cased. */
const piecesOf = (secret: string) =>
  Array.from({ length: secret.length - 3 }, (_, at) => secret.slice(at, at + 4).toLowerCase())

const cases = Object.entries(kinds).flatMap(([kind, secret]) =>
  Object.entries(encodings).flatMap(([encoding, encode]) =>
    Object.entries(escapes).map(([escaping, apply]) => ({ kind, secret, encoding, encode, escaping, apply })),
  ),
)

describe('Secrets.redact, after a server escaped an encoded secret', () => {
  it('has secrets whose encodings hold every character an escape of some characters escapes', () => {
    for (const secret of Object.values(kinds)) {
      expect(secret).toMatch(/(?=.*\+)(?=.*\/)(?=.*=)/)
      expect(encodings.base64?.(secret)).toMatch(/(?=.*\+)(?=.*\/)(?=.*=)/)
      expect(encodings.base64url?.(secret)).toMatch(/(?=.*-)(?=.*_)/)
    }
  })

  it.each(cases)(
    'leaves no piece of $kind in $encoding with $escaping',
    ({ secret, encoding, encode, apply }) => {
      const echoed = apply(encode(secret))
      const shown = secrets.redact(`{"echoed": "${echoed}", "after": "x"}`)
      expect(shown).toContain(redactedMarker)
      expect(shown).toContain('"after": "x"')
      const read = (readBack[encoding] as (text: string) => string[])(undoEscapes(shown)).join('\n')
      expect(
        piecesOf(secret).filter((piece) => read.includes(piece)),
        shown,
      ).toEqual([])
    },
  )
})

describe('Secrets.redact, after a clip cut an escaped encoded secret', () => {
  const clipped = Object.entries(encodings)
    .filter(([encoding]) => encoding !== 'plain')
    .flatMap(([encoding, encode]) =>
      Object.entries(escapes)
        .filter(([escaping]) => escaping !== 'no escape')
        .map(([escaping, apply]) => ({ encoding, escaping, echoed: apply(encode(`someone:${apiKey}`)) })),
    )

  it.each(clipped)(
    'leaves at most 3 characters of the key in $encoding with $escaping, cut anywhere',
    ({ encoding, echoed }) => {
      for (let cut = 1; cut < echoed.length; cut++) {
        const shown = secrets.redact(`echoed: ${echoed.slice(0, cut)}… (2003 chars)`)
        const read = (readBack[encoding] as (text: string) => string[])(undoEscapes(shown)).join('\n')
        expect(
          piecesOf(apiKey).filter((piece) => read.includes(piece)),
          `cut at ${cut}: ${shown}`,
        ).toEqual([])
      }
    },
  )
})
