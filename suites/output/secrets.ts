import { nearMissCredentials } from '../near-miss-credentials.ts'

/** What replaces a secret in every output: fixed, so that no character of the secret (nor its length) shows. */
export const redactedMarker = '[redacted]'

/** Headers whose values are secrets wherever they are written (`name: value` lines, `"name": "value"` JSON). */
const defaultSecretHeaders = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'] as const

/**
 * Shorter values cannot be redacted without destroying the report (a 3-character key is in every other
 * word); they are left out, and `Secrets.tooShort` names them so the run can say so.
 */
const minimumSecretLength = 4

export type SecretKind =
  | 'API key'
  | 'derived key'
  | 'base-URL credential'
  | 'proxy credential'
  | 'secret header'

export interface Secret {
  value: string
  kind: SecretKind
  /**
   * `anywhere` (the key, a password): every occurrence, inside words too, in every encoding.
   * `word`: only where it stands as a whole word (not inside a longer run of letters and digits), in plain,
   * URL-encoded and JSON-escaped form. For pieces of the key (its first half, the key a character short)
   * and user names, which can be ordinary words of the report ("conform" of a key `conformance-key`).
   */
  match: 'anywhere' | 'word'
}

interface Compiled {
  /** Case-insensitive forms matched anywhere: plain, URL-encoded, JSON-escaped, HTML-escaped. */
  anywhere: RegExp | undefined
  /** Base64 (standard and URL-safe alphabets, at each of the three alignments) of every secret: case matters. */
  base64: RegExp | undefined
  word: RegExp | undefined
  headerLine: RegExp
  headerJson: RegExp
}

/**
 * The secrets of one run and the redactor built from them. The redactor is a pure function of the list
 * (`redactText`); the needles (each secret in each encoding) are compiled once into three regular
 * expressions, again only after a secret is added, so redacting costs one pass per expression.
 *
 * Other parts of the run add what they learn is secret before anything is written: proxy credentials
 * (`add(password, 'proxy credential')`), headers the user marks as secret (`addHeader('x-api-token')`).
 * @example
 * const secrets = Secrets.forRun({ apiKey: 'sk_live_abcd1234', baseUrl: 'https://u:p4ss@staging/v1' })
 * secrets.redact('echo: Bearer sk_live_abcd1234') // 'echo: Bearer [redacted]'
 */
export class Secrets {
  readonly #secrets: Secret[] = []
  readonly #headers = new Set<string>(defaultSecretHeaders)
  #compiled: Compiled | undefined
  /** How many secrets were replaced so far, by all redactions of this set. */
  hits = 0
  /** Secrets left out because they are shorter than `minimumSecretLength`. */
  readonly tooShort: SecretKind[] = []

  /** The API key, every near-miss key derived from it, and the base URL's credentials. */
  static forRun(run: { apiKey: string; baseUrl: string }): Secrets {
    const secrets = new Secrets()
    secrets.addApiKey(run.apiKey)
    secrets.addBaseUrl(run.baseUrl)
    return secrets
  }

  add(value: string, kind: SecretKind, match: Secret['match'] = 'anywhere'): this {
    if (value.trim() === '') return this
    if (value.length < minimumSecretLength) {
      if (match === 'anywhere' && !this.tooShort.includes(kind)) this.tooShort.push(kind)
      return this
    }
    if (this.#secrets.some((secret) => secret.value === value && secret.match === match)) return this
    this.#secrets.push({ value, kind, match })
    this.#compiled = undefined
    return this
  }

  /** A header whose value is secret wherever it is written (compared without regard to case). */
  addHeader(name: string): this {
    this.#headers.add(name.toLowerCase())
    this.#compiled = undefined
    return this
  }

  /**
   * The key, and the values the auth checks derive from it and send (nearMissCredentials): its other
   * letter cases are the key itself (matched in any case); a character more contains it; a character
   * fewer, another last character, its first half are pieces of it, matched as whole words.
   */
  addApiKey(apiKey: string): this {
    if (apiKey === '') return this
    this.add(apiKey, 'API key')
    for (const { authorization } of nearMissCredentials(apiKey))
      for (const token of (authorization ?? '').split(/[\s,"]+/)) {
        const piece = token.replace(/:$/, '')
        if (/^(bearer|basic|token)$/i.test(piece) || piece.toLowerCase().includes(apiKey.toLowerCase()))
          continue
        this.add(piece, 'derived key', 'word')
      }
    return this
  }

  /** `https://user:pass@host`: the password anywhere; the user name as a word (it is often a common one). */
  addBaseUrl(baseUrl: string): this {
    let url: URL
    try {
      url = new URL(baseUrl)
    } catch {
      return this
    }
    for (const [raw, match] of [
      [url.password, 'anywhere'],
      [url.username, 'word'],
    ] as const) {
      if (raw === '') continue
      this.add(raw, 'base-URL credential', match)
      this.add(safeDecode(raw), 'base-URL credential', match)
    }
    return this
  }

  /** Every secret replaced by `redactedMarker`, in any letter case and in its common encodings. */
  redact(text: string): string {
    this.#compiled ??= compile(this.#secrets, [...this.#headers])
    const { text: redacted, hits } = redactText(text, this.#compiled)
    this.hits += hits
    return redacted
  }

  /**
   * A copy of `value` (a report) with every string in it redacted; `onHit` gets the path of each string
   * that held a secret (`findings.0.example`).
   */
  redactDeep<T>(value: T, onHit?: (path: string) => void, path = ''): T {
    if (typeof value === 'string') {
      const before = this.hits
      const redacted = this.redact(value)
      if (this.hits > before) onHit?.(path)
      return redacted as T
    }
    if (Array.isArray(value))
      return value.map((item, index) => this.redactDeep(item, onHit, join(path, String(index)))) as T
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, this.redactDeep(item, onHit, join(path, name))]),
      ) as T
    return value
  }
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** The pure core: `text` with every needle of `compiled` (see `compile`) replaced, and how many were. */
function redactText(text: string, compiled: Compiled): { text: string; hits: number } {
  let hits = 0
  const marker = () => {
    hits++
    return redactedMarker
  }
  let out = text
  // Whole secrets first: a piece of the key must not eat into the key and leave the rest of it standing.
  if (compiled.anywhere) out = out.replace(compiled.anywhere, marker)
  if (compiled.base64) out = out.replace(compiled.base64, marker)
  if (compiled.word) out = out.replace(compiled.word, marker)
  out = out.replace(compiled.headerLine, (line, lead: string, name: string, colon: string, value: string) => {
    const shown = maskHeaderValue(value)
    if (shown === value) return line
    hits++
    return `${lead}${name}${colon}${shown}`
  })
  out = out.replace(compiled.headerJson, (pair, lead: string, value: string) => {
    const shown = maskHeaderValue(value)
    if (shown === value) return pair
    hits++
    return `${lead}${shown}"`
  })
  return { text: out, hits }
}

// The scheme stays (it says what kind of credential was sent); what follows it is the secret.
function maskHeaderValue(value: string): string {
  if (value.trim() === '') return value
  const scheme = /^([A-Za-z][A-Za-z0-9_-]*)([ \t]+)\S/.exec(value)
  const masked = scheme ? `${scheme[1]}${scheme[2]}${redactedMarker}` : redactedMarker
  return value.replaceAll(redactedMarker, '').trim() === (scheme?.[1] ?? '') ? value : masked
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

/** The encodings a secret is matched in, whatever the case of its letters. */
function caselessForms(value: string): string[] {
  const forms = [
    value,
    encodeURIComponent(value),
    encodeURIComponent(value).replaceAll('%20', '+'),
    JSON.stringify(value).slice(1, -1),
    value
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&#39;'),
  ]
  return [...new Set(forms)]
}

/**
 * The characters every base64 text holding `value` carries, at each of the three byte alignments it may
 * start at (so `user:key` in a Basic header is found whatever the user's length): the characters that
 * depend only on the value's own bits, in the standard and the URL-safe alphabet.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value)
  const forms: string[] = []
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const first = Math.ceil((offset * 8) / 6)
    const last = Math.floor(((offset + bytes.length) * 8) / 6)
    const inner = encoded.slice(first, last)
    if (inner.length >= 8) forms.push(inner, inner.replaceAll('+', '-').replaceAll('/', '_'))
  }
  return forms
}

function alternation(needles: string[], flags: string, word = false): RegExp | undefined {
  const unique = [...new Set(needles)].sort((a, b) => b.length - a.length)
  if (unique.length === 0) return undefined
  const body = unique.map(escapeRegExp).join('|')
  return new RegExp(word ? `(?<![A-Za-z0-9])(?:${body})(?![A-Za-z0-9])` : body, flags)
}

/** The needles of a list of secrets, built once: three expressions and the two header patterns. */
function compile(secrets: readonly Secret[], headers: readonly string[]): Compiled {
  const anywhere = secrets.filter((secret) => secret.match === 'anywhere')
  const words = secrets.filter((secret) => secret.match === 'word')
  const names = headers.map(escapeRegExp).join('|')
  return {
    anywhere: alternation(
      anywhere.flatMap((secret) => caselessForms(secret.value)),
      'gi',
    ),
    // Pieces of the key too: a base64 text has no word boundaries to tell them from ordinary words by.
    base64: alternation(
      secrets.flatMap((secret) =>
        [secret.value, secret.value.toUpperCase(), secret.value.toLowerCase()].flatMap(base64Forms),
      ),
      'g',
    ),
    word: alternation(
      words.flatMap((secret) => caselessForms(secret.value)),
      'gi',
      true,
    ),
    // `  authorization: Bearer …` in an exchange, `> cookie: …`, `set-cookie: …` in a response.
    headerLine: new RegExp(`^([ \\t>< -]*)(${names})([ \\t]*:[ \\t]*)([^\\r\\n]*)$`, 'gim'),
    // `"authorization": "…"` in a JSON body that echoes the request's headers.
    headerJson: new RegExp(`("(?:${names})"\\s*:\\s*")((?:[^"\\\\\\r\\n]|\\\\.)*)"`, 'gi'),
  }
}
