// The run's secrets and the redactor that finds them in any encoding, case or wrapping, inside words or not.
import { nearMissCredentials } from '../values/index.ts'
import { decodeText, originalRange, unescapedText } from './decoded-text.ts'
import { hexDumpRanges } from './hex-dump.ts'

/** What replaces a secret in every output: fixed, so that no character of the secret (nor its length) shows. */
export const redactedMarker = '[redacted]'

/** Headers whose values are secrets wherever they are written (`name: value` lines, `"name": "value"` JSON). */
const defaultSecretHeaders = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'] as const

/**
 * Shorter values cannot be redacted without destroying the report (a 3-character key is in every other
 * word); they are left out, and `Secrets.tooShort` names them so the run can say so.
 */
const minimumSecretLength = 4

// What the redactor remembers of texts it already read: a few megabytes, whatever the run's reports hold.
const memoChars = 2 * 1024 * 1024

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
  /** Secrets matched anywhere, decoded and lower-cased (see decoded-text.ts); pieces matched as words. */
  anywhere: string[]
  words: string[]
  /** Base64 (standard and URL-safe alphabets, at each of the three alignments, any case), whole secrets. */
  base64: RegExp | undefined
  /** The same for pieces of the key, matched on their own: an alternation takes the first branch, not the longest. */
  base64Pieces: RegExp | undefined
  /** Hexadecimal of whole secrets, any case. */
  hex: RegExp | undefined
  headerLine: RegExp
  /** A header's name as a framework dumps it (`"name":`, `'name':`, `"name"=>`, `[HTTP_NAME] =>`, `name=`). */
  headerDump: RegExp
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
    // Each report writes the same exchanges and messages again (JSON, HTML, JUnit, Markdown): read once.
    const compiled = this.#current()
    const known = this.#done.get(text)
    const { text: redacted, hits } = known ?? redactText(text, compiled)
    const size = text.length + redacted.length
    if (!known && text.length >= 64 && this.#doneChars + size <= memoChars) {
      this.#done.set(text, { text: redacted, hits })
      this.#doneChars += size
    }
    this.hits += hits
    return redacted
  }

  /** What texts were redacted to under the current secrets, up to `memoChars` characters of both. */
  readonly #done = new Map<string, { text: string; hits: number }>()
  #doneChars = 0

  /** The redactor for the secrets as they are now, compiled again (and the memo emptied) after one was added. */
  #current(): Compiled {
    if (this.#compiled === undefined) {
      this.#compiled = compile(this.#secrets, [...this.#headers])
      this.#done.clear()
      this.#doneChars = 0
    }
    return this.#compiled
  }

  /**
   * `value` (a report) with every string in it redacted: a copy if any string held a secret, `value`
   * itself if none did. `onHit` gets the path of each string that held one (`findings.0.example`).
   */
  redactDeep<T>(value: T, onHit?: (path: string) => void): T {
    // Every string read at once first: a run's report usually holds no secret, and its thousand-odd short
    // strings read one by one cost ~20 ms of the run's end. Joined by a blank line, which ends whatever the
    // redactor reads across lines (a header line, a hex dump, wrapped base64, an escape), the strings hold
    // every secret each holds alone; a secret found across two of them only costs the reading one by one.
    const strings: string[] = []
    collectStrings(value, strings)
    if (redactText(strings.join('\n\n'), this.#current()).hits === 0) return value
    return this.#redactEach(value, onHit, '')
  }

  #redactEach<T>(value: T, onHit: ((path: string) => void) | undefined, path: string): T {
    if (typeof value === 'string') {
      const before = this.hits
      const redacted = this.redact(value)
      if (this.hits > before) onHit?.(path)
      return redacted as T
    }
    if (Array.isArray(value))
      return value.map((item, index) => this.#redactEach(item, onHit, join(path, String(index)))) as T
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, this.#redactEach(item, onHit, join(path, name))]),
      ) as T
    return value
  }
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value)
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into)
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) collectStrings(item, into)
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
  const ranges = secretRanges(text, compiled)
  let hits = ranges.length
  let out = ''
  let at = 0
  for (const [start, end] of ranges) {
    out += `${text.slice(at, start)}${redactedMarker}`
    at = end
  }
  out += text.slice(at)
  out = out.replace(compiled.headerLine, (line, lead: string, name: string, colon: string, value: string) => {
    const shown = maskHeaderValue(value)
    if (shown === value) return line
    hits++
    return `${lead}${name}${colon}${shown}`
  })
  out = maskHeaderDumps(out, compiled.headerDump, () => hits++)
  return { text: out, hits }
}

const wordCharacter = /[a-z0-9]/

/**
 * Where `text` holds a secret, as ranges of it, sorted and merged (a piece of the key inside the key, a
 * base64 form overlapping a plain one: one marker). Every kind of match is collected on the original text
 * before anything is replaced, so none can eat into another and leave part of a secret standing.
 */
function secretRanges(text: string, compiled: Compiled): [number, number][] {
  const decoded = decodeText(text)
  const ranges = needleRanges(decoded.text, compiled).map(([at, end]) => originalRange(decoded, at, end))
  const secrets = [...compiled.anywhere, ...compiled.words]
  // A secret that holds no `…` cannot run across one: what is read before a clip stops at the `…` before
  // it, so a text of many is read once rather than once per `…` over the length of the longest secret.
  const acrossClips = secrets.some((secret) => secret.includes('…'))
  let previous = 0
  for (const { index: at } of text.matchAll(/…/g)) {
    const start = clippedStart(text, at, secrets, acrossClips ? 0 : previous)
    if (start !== undefined) ranges.push([start, at])
    previous = at + 1
  }
  for (const range of encodedRanges(text, compiled)) ranges.push(range)
  // Read again with the escapes undone: a server escapes the characters of base64 or hexadecimal as it
  // escapes any text, some (Go's html/template writes `+` as `&#43;`, .NET's System.Text.Json `\u002B`, a
  // URL `%2B`) or all of them. What matched is replaced where it stands, escapes and all.
  if (decoded.at.length > 0)
    for (const [at, end] of encodedRanges(unescapedText(text, decoded), compiled))
      ranges.push(originalRange(decoded, at, end))
  for (const range of hexDumpRanges(text, (bytes) => needleRanges(bytes, compiled))) ranges.push(range)
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1])
  const merged: [number, number][] = []
  for (const range of ranges) {
    const last = merged.at(-1)
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([...range])
  }
  return merged
}

/** Where `text` holds the base64 of a secret (wrapped across lines or not) or its hexadecimal. */
function encodedRanges(text: string, compiled: Compiled): [number, number][] {
  const ranges: [number, number][] = []
  for (const expression of [compiled.base64, compiled.base64Pieces, compiled.hex])
    if (expression)
      for (const match of text.matchAll(expression)) ranges.push([match.index, match.index + match[0].length])
  for (const run of text.matchAll(wrappedBase64))
    for (const range of wrappedRanges(run[0], run.index, compiled)) ranges.push(range)
  return ranges
}

/**
 * Where the decoded text (`decodeText`) holds a needle: anywhere for a secret, as a whole word for a piece
 * of the key (a letter escaped by a backslash, `\n` in a JSON body, ends a word as the character it
 * stands for).
 */
function needleRanges(decoded: string, compiled: Compiled): [number, number][] {
  const ranges: [number, number][] = []
  const found = (needle: string, word: boolean) => {
    for (let at = decoded.indexOf(needle); at >= 0; at = decoded.indexOf(needle, at + 1)) {
      const end = at + needle.length
      const before = decoded[at - 1] ?? ''
      const after = decoded[end] ?? ''
      if (word && ((wordCharacter.test(before) && decoded[at - 2] !== '\\') || wordCharacter.test(after)))
        continue
      ranges.push([at, end])
    }
  }
  for (const needle of compiled.anywhere) found(needle, false)
  for (const needle of compiled.words) found(needle, true)
  return ranges
}

// A line break where base64 is wrapped (MIME's 76 characters, PEM's 64): as it is, or escaped in a JSON
// string (JSON inside JSON too), with the next line's indentation.
const wrapBreak = String.raw`(?:\r\n?|\n|\\+r(?:\\+n)?|\\+n)[ \t]*`
const base64Run = '(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]+'

/**
 * Runs of base64 characters joined by line breaks. Each starts where a run does (the look-behind): tried
 * from every character, a long run without a break took the engine quadratic time.
 */
const wrappedBase64 = new RegExp(`${base64Run}(?:${wrapBreak}[A-Za-z0-9+/_-]+)+`, 'g')
const breakAt = new RegExp(wrapBreak, 'y')

/** A wrapped run's base64 characters joined, and where each was in the text (`offset` is the run's). */
function unwrapped(run: string, offset: number): { joined: string; kept: number[] } {
  const kept: number[] = []
  let joined = ''
  for (let at = 0; at < run.length; ) {
    breakAt.lastIndex = at
    if (breakAt.test(run)) {
      at = breakAt.lastIndex
      continue
    }
    kept.push(offset + at)
    joined += run[at]
    at++
  }
  return { joined, kept }
}

/**
 * Where a wrapped run (at `offset` in the text) holds the base64 of a secret, read with its line breaks
 * taken out: the break may fall between any two characters. A second reading of such runs only, rather
 * than a line break allowed between every two characters of the expressions, which doubled their time.
 */
function wrappedRanges(run: string, offset: number, compiled: Compiled): [number, number][] {
  const { joined, kept } = unwrapped(run, offset)
  const ranges: [number, number][] = []
  for (const expression of [compiled.base64, compiled.base64Pieces])
    if (expression)
      for (const match of joined.matchAll(expression))
        ranges.push([kept[match.index] as number, (kept[match.index + match[0].length - 1] as number) + 1])
  return ranges
}

/**
 * Where what a clip (`…` at `at`, as every clip of server text in the reports ends) left of a secret
 * starts, in the original text: the longest run of `minimumSecretLength` characters or more before it that,
 * decoded, is part of a secret (the start of the key, or of a near-miss key that starts further in), with
 * a half-written escape of the next character (`%2`, `\\u00`, `&#4`) after it; or a run of hexadecimal or
 * base64 whose bytes end in part of one. Without this a clip that falls inside an echoed key would show all but
 * its end. The half escape is found in the original text: decoded, `&#4` is another character. Nothing
 * before `floor` is read.
 */
function clippedStart(
  text: string,
  at: number,
  secrets: readonly string[],
  floor: number,
): number | undefined {
  const half = halfEscape.exec(text.slice(Math.max(0, at - 24), at))
  const longest = Math.max(0, ...secrets.map((secret) => secret.length))
  const starts: number[] = []
  // With and without what may be a half-written escape: `&#72` before the cut may be a whole one.
  for (const end of new Set([at - (half?.[0].length ?? 0), at])) {
    // Room for the longest secret with every character escaped (`&amp;#x0002b;` is 13 characters).
    const from = Math.max(floor, end - longest * 14)
    const before = decodeText(text.slice(from, end))
    const decodedStart = secretTailStart(before.text, secrets, longest)
    if (decodedStart !== undefined)
      starts.push(from + originalRange(before, decodedStart, before.text.length)[0])
    // Hexadecimal and base64 as they stand, and with their escapes undone (`Zm9v&#43;YmFy…`).
    const unescaped = before.at.length > 0 ? unescapedText(text.slice(from, end), before) : undefined
    for (const tailStart of [hexTailStart, base64TailStart]) {
      const start = tailStart(text.slice(from, end), secrets)
      if (start !== undefined) starts.push(from + start)
      const unescapedStart = unescaped === undefined ? undefined : tailStart(unescaped, secrets)
      if (unescapedStart !== undefined)
        starts.push(from + originalRange(before, unescapedStart, unescapedStart + 1)[0])
    }
  }
  return starts.length === 0 ? undefined : Math.min(...starts)
}

const halfEscape =
  /(?:%(?:25)*[0-9a-f]?|\\+(?:u[0-9a-f]{0,3}|x[0-9a-f]?|[0-3][0-7]?)?|&(?:amp;)*#?x?[0-9a-z]*)$/i

/** Where the longest run at the end of `text` that is part of a secret starts, if it has enough characters. */
function secretTailStart(text: string, secrets: readonly string[], longest: number): number | undefined {
  // What is left ends with these characters: nothing is, unless a secret holds them (nearly always).
  const tail = text.slice(-minimumSecretLength)
  if (tail.length < minimumSecretLength || !secrets.some((secret) => secret.includes(tail))) return undefined
  for (let length = Math.min(longest, text.length); length >= minimumSecretLength; length--) {
    const left = text.slice(text.length - length)
    if (secrets.some((secret) => secret.includes(left))) return text.length - length
  }
  return undefined
}

/**
 * Where a run of hexadecimal at the end of `text` starts, when its bytes end in part of a secret, read from
 * either of its first two digits: a run longer than the text read before a clip (the hexadecimal of a long
 * text, escaped) may start there in the middle of a byte.
 */
function hexTailStart(text: string, secrets: readonly string[]): number | undefined {
  const start = hexTail(text)
  if (start === undefined) return undefined
  const digits = text.slice(start).replace(/[^0-9a-f]/gi, '')
  for (let offset = 0; offset < 2; offset++) {
    const pairs = digits.slice(offset, digits.length - ((digits.length - offset) % 2))
    const decoded = decodeText(Buffer.from(pairs, 'hex').toString('latin1')).text
    if (secretTailStart(decoded, secrets, decoded.length) !== undefined) return start
  }
  return undefined
}

const isHexDigit = (text: string, at: number) => {
  const code = text.charCodeAt(at)
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66)
}
const isHexSeparator = (text: string, at: number) => ' :-'.includes(text[at] ?? 'x')

/**
 * Where the hexadecimal that ends `text` starts, if it does: byte pairs, each maybe followed by one
 * separator (`73 6b:5F-`), then maybe half a byte; the earliest start, as the expression
 * /(?:[0-9a-f]{2}[ :-]?)+[0-9a-f]?$/i finds it. Read backwards once: the expression tries every start of a
 * long run and reads on to the end from each, quadratic in the run.
 */
function hexTail(text: string): number | undefined {
  // fromHere[at]: the text from `at` is such pairs (maybe none), then maybe half a byte.
  const fromHere = new Uint8Array(text.length + 3)
  fromHere[text.length] = 1
  let start: number | undefined
  for (let at = text.length - 1; at >= 0; at--) {
    if (!isHexDigit(text, at) && !isHexSeparator(text, at)) break
    const pair =
      isHexDigit(text, at) &&
      isHexDigit(text, at + 1) &&
      (fromHere[at + 2] === 1 || (isHexSeparator(text, at + 2) && fromHere[at + 3] === 1))
    if (pair) start = at
    fromHere[at] = pair || (at === text.length - 1 && isHexDigit(text, at)) ? 1 : 0
  }
  return start
}

/**
 * Where a run of base64 (either alphabet, wrapped across lines or not) at the end of `text` starts, when
 * its bytes end in part of a secret, read from whichever of its first four characters the encoding began
 * at. A clip that cuts `Basic dXNlcjpr…` leaves no whole base64 form of the secret to find.
 */
function base64TailStart(text: string, secrets: readonly string[]): number | undefined {
  const start = base64Tail(text)
  if (start === undefined) return undefined
  const standard = unwrapped(text.slice(start), 0).joined.replaceAll('-', '+').replaceAll('_', '/')
  for (let offset = 0; offset < 4; offset++) {
    const decoded = decodeText(Buffer.from(standard.slice(offset), 'base64').toString('latin1')).text
    if (secretTailStart(decoded, secrets, decoded.length) !== undefined) return start
  }
  return undefined
}

const isBase64 = (text: string, at: number) => {
  const code = text.charCodeAt(at)
  const letter = code | 0x20
  return (
    (letter >= 0x61 && letter <= 0x7a) || (code >= 0x30 && code <= 0x39) || '+/_-'.includes(text[at] ?? 'x')
  )
}

// What a line break between runs of base64 is made of (`wrapBreak`): past any other character that is not
// base64, no run further back can reach the end.
const isBreakCharacter = (text: string, at: number) => '\r\n\\ \t'.includes(text[at] ?? 'x')

/**
 * Where the base64 that ends `text` starts, if it does: a run of base64 characters (not inside a longer
 * one), then any number of line breaks (`wrapBreak`) each followed by another run, up to the end; the
 * earliest start, as `${base64Run}(?:${wrapBreak}[A-Za-z0-9+/_-]+)*$` finds it. Read backwards once: the
 * expression reads on to the end from the start of every run, quadratic in a text of short wrapped lines.
 */
function base64Tail(text: string): number | undefined {
  // toEnd[at]: the text from `at` is a run, then line breaks each followed by a run, up to the end.
  const toEnd = new Uint8Array(text.length + 1)
  let start: number | undefined
  for (let at = text.length - 1; at >= 0; at--) {
    if (!isBase64(text, at)) {
      if (isBreakCharacter(text, at)) continue
      break
    }
    const next = at + 1
    // A break is tried only right after a run, so each run of backslashes is read once.
    breakAt.lastIndex = next
    const wraps = () => breakAt.test(text) && toEnd[breakAt.lastIndex] === 1
    toEnd[at] = next === text.length || toEnd[next] === 1 || (!isBase64(text, next) && wraps()) ? 1 : 0
    if (toEnd[at] === 1 && !isBase64(text, at - 1)) start = at
  }
  return start
}

/**
 * Every value of a secret header that a framework's dump of the request holds, masked: a quoted string (in
 * whatever quotes the name had, `\\"` in JSON inside JSON), each string of an array or an object
 * (`"set-cookie": ["a=1", "b=2"]`, `"cookie": {"sid": "…"}`), the rest of the line after `=>` (PHP's
 * print_r), or up to `&` after `name=` (a form).
 */
function maskHeaderDumps(text: string, dump: RegExp, hit: () => void): string {
  let out = ''
  let done = 0
  for (const name of dumpedNames(text, dump)) {
    if (name.start < done) continue
    const value = dumpedValue(text, name.end, name.quote, name.arrow, name.form)
    if (value === undefined) continue
    const masked = value.masked
    if (masked === text.slice(name.end, value.end)) continue
    hit()
    out += text.slice(done, name.end) + masked
    done = value.end
  }
  return done === 0 ? text : out + text.slice(done)
}

/** A secret header's name in a dump: where it starts, where its value starts, and how the value is written. */
interface DumpedName {
  start: number
  end: number
  /** The quote the name was written in (with its backslashes: `\\"`), which the value's strings repeat. */
  quote: string | undefined
  /** `=>` after the name: the rest of the line is the value (PHP's print_r). */
  arrow: boolean
  /** `name=`: a form's value, up to `&`. */
  form: boolean
}

/**
 * The names `dump` finds, in order. A quoted name's closing quote repeats its opening one, backslashes
 * included (`\"cookie\":`, JSON inside JSON): the name starts as many backslashes before its quote as
 * stand before the closing one, and is not a name when fewer do. `dump` reads a run of backslashes once,
 * from its start, and this counts them: matched as `\\*["']` from every backslash of a run, the opening
 * would read the run again from each one, quadratic in its length.
 */
function dumpedNames(text: string, dump: RegExp): DumpedName[] {
  const names: DumpedName[] = []
  dump.lastIndex = 0
  for (let match = dump.exec(text); match; match = dump.exec(text)) {
    const end = match.index + match[0].length
    const arrow = /=>\s*$/.test(match[0])
    const { before, quote, closing, bracket } = match.groups ?? {}
    if (quote === undefined || before === undefined) {
      names.push({ start: match.index, end, quote: undefined, arrow, form: bracket === undefined })
      continue
    }
    const opening = match.index + before.length
    // Closed by `]` (`"name]`), the name takes every backslash before its quote.
    const escapes = closing?.length ?? before.length
    if (escapes > before.length) {
      dump.lastIndex = opening + 1
      continue
    }
    names.push({
      start: opening - escapes,
      end,
      quote: text.slice(opening - escapes, opening + 1),
      arrow,
      form: false,
    })
  }
  return names
}

function dumpedValue(
  text: string,
  from: number,
  quote: string | undefined,
  arrow: boolean,
  form: boolean,
): { masked: string; end: number } | undefined {
  // Unquoted: up to what ends a value in a form or a dump line, and never past a quote, markup or an
  // escaped line end, which may be the report's own (an XML attribute, a JSON string, an HTML cell).
  if (form || quote === undefined) {
    if (!form && !arrow) return undefined
    const stop = form ? /[&\s"'<>\\]|$/ : /[\r\n"'<>]|\\[nrt"]|$/
    const end = text.slice(from).search(stop) + from
    const value = text.slice(from, end)
    return { masked: maskHeaderValue(form ? value.replaceAll('+', ' ') : value), end }
  }
  const q = escapeRegExp(quote)
  // A quoted value holds no quote, markup or line end: one that does is not a header's, and masking it
  // could eat the report's syntax.
  const element = `${q}((?:(?!${q})[^"'<>\\r\\n])*)${q}`
  const pair = `${element}\\s*(?::|=>)\\s*${element}`
  const shapes = [
    new RegExp(element, 'y'),
    new RegExp(`\\[\\s*(?:${element}\\s*(?:,\\s*${element}\\s*)*)?\\]`, 'y'),
    new RegExp(`\\{\\s*(?:${pair}\\s*(?:,\\s*${pair}\\s*)*)?\\}`, 'y'),
  ]
  for (const [index, shape] of shapes.entries()) {
    shape.lastIndex = from
    const found = shape.exec(text)
    if (!found) continue
    let nth = 0
    const masked = found[0].replace(new RegExp(element, 'g'), (whole, value: string) =>
      // In an object, only values: every other string is a name.
      index === 2 && nth++ % 2 === 0 ? whole : `${quote}${maskHeaderValue(value)}${quote}`,
    )
    return { masked, end: from + found[0].length }
  }
  return undefined
}

// The scheme stays (it says what kind of credential was sent); what follows it is the secret.
function maskHeaderValue(value: string): string {
  if (value.trim() === '') return value
  const scheme = /^([A-Za-z][A-Za-z0-9_-]*)([ \t]+)\S/.exec(value)
  const masked = scheme ? `${scheme[1]}${scheme[2]}${redactedMarker}` : redactedMarker
  return value.replaceAll(redactedMarker, '').trim() === (scheme?.[1] ?? '') ? value : masked
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

/**
 * A secret as hexadecimal (a dump of the request), byte by byte in either letter case, the bytes
 * possibly separated, as a regular expression matched without regard to case.
 */
function hexPattern(value: string): string {
  return [...value]
    .map((char) => {
      // Java's Turkish letter case spells i and I as İ and ı.
      const turkish = char.toLowerCase() === 'i' ? ['\u0130', '\u0131'] : []
      const spellings = [...new Set([char, char.toLowerCase(), char.toUpperCase(), ...turkish])].map(
        (variant) => (Buffer.from(variant).toString('hex').match(/../g) ?? []).join(hexSeparator),
      )
      return spellings.length === 1 ? spellings[0] : `(?:${spellings.join('|')})`
    })
    .join(hexSeparator)
}

// A dump may separate the bytes: `73 6b`, `73:6B`, `73-6b`.
const hexSeparator = '[ :-]?'

// The standard alphabet and the URL-safe one.
const base64Alphabets = [
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
]

/**
 * The values each of base64's four characters of a group of three bytes can take, given the values each
 * byte can take (a letter in either case): each character holds bits of one or two bytes only.
 */
function base64Characters([a, b, c]: number[][]): number[][] {
  const pairs = (firsts: number[], seconds: number[], value: (x: number, y: number) => number) =>
    firsts.flatMap((x) => seconds.map((y) => value(x, y)))
  return [
    (a as number[]).map((x) => x >> 2),
    pairs(a as number[], b as number[], (x, y) => ((x & 3) << 4) | (y >> 4)),
    pairs(b as number[], c as number[], (x, y) => ((x & 15) << 2) | (y >> 6)),
    (c as number[]).map((y) => y & 63),
  ]
}

function base64Patterns(value: string): string[] {
  const bytes = [...Buffer.from(value)]
  const patterns: string[] = []
  for (let offset = 0; offset < 3; offset++) {
    // The secret's bytes at `offset` in groups of three; `undefined` is a byte around it.
    const padded: (number | undefined)[] = [...Array(offset).fill(undefined), ...bytes]
    while (padded.length % 3 !== 0) padded.push(undefined)
    /** One expression per base64 character that holds bits of the secret. */
    const characters: string[] = []
    let known = 0
    for (let at = 0; at < padded.length; at += 3) {
      const group = padded.slice(at, at + 3)
      // Which of the group's four characters hold bits of the secret: all (true), some (undefined), none.
      const holds = [0, 1, 2, 3].map((char) => {
        const covered = [Math.floor((char * 6) / 8), Math.floor((char * 6 + 5) / 8)].map(
          (index) => group[index] !== undefined,
        )
        return covered.every(Boolean) ? true : covered.some(Boolean) ? undefined : false
      })
      known += holds.filter((held) => held === true).length
      const cases = group.map((byte) => {
        const letter = byte !== undefined && (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a
        return byte === undefined ? [0] : letter ? [byte | 0x20, byte & ~0x20] : [byte]
      })
      const values = base64Characters(cases)
      // One class per character: a letter's case is one bit, which lands in one character of the four,
      // so the classes together spell exactly the spellings (and compile and match far faster).
      characters.push(
        ...holds.flatMap((held, index) => {
          if (held === false) return []
          if (held === undefined) return ['[A-Za-z0-9+/_-]']
          const chars = [
            ...new Set(
              (values[index] as number[]).flatMap((value) =>
                base64Alphabets.map((alphabet) => alphabet[value] as string),
              ),
            ),
          ]
          return [
            chars.length === 1 ? escapeRegExp(chars[0] as string) : `[${chars.map(escapeRegExp).join('')}]`,
          ]
        }),
      )
    }
    if (known >= 8) patterns.push(characters.join(''))
  }
  return patterns
}

function alternation(patterns: string[], flags: string): RegExp | undefined {
  const unique = [...new Set(patterns)].sort((a, b) => b.length - a.length)
  return unique.length === 0 ? undefined : new RegExp(unique.join('|'), flags)
}

/**
 * A secret as it may come back through an HTML form: a space as `+` (which decoding cannot tell from a
 * plus), or a plus as a space (a form decoded on the server's side).
 */
function formSpellings(value: string): string[] {
  return [...new Set([value, value.replaceAll(' ', '+'), value.replaceAll('+', ' ')])]
}

/**
 * The needles of a list of secrets, built once: the decoded forms searched for, three small expressions
 * (base64, its pieces, hexadecimal) and the two header patterns.
 */
function compile(secrets: readonly Secret[], headers: readonly string[]): Compiled {
  const anywhere = secrets.filter((secret) => secret.match === 'anywhere')
  const words = secrets.filter((secret) => secret.match === 'word')
  const names = headers.map(escapeRegExp).join('|')
  const dumpedName = `(?:http_)?(?:${names.replaceAll('\\-', '[-_]')})`
  const arrowOrColon = String.raw`\s*(?::|=>)\s*`
  const needles = (list: Secret[]) => [
    ...new Set(list.flatMap(({ value }) => formSpellings(value).map((form) => decodeText(form).text))),
  ]
  return {
    anywhere: needles(anywhere),
    words: needles(words),
    base64: alternation(
      anywhere.flatMap((secret) => base64Patterns(secret.value)),
      'g',
    ),
    // Pieces of the key too: a base64 text has no word boundaries to tell them from ordinary words by.
    base64Pieces: alternation(
      words.flatMap((secret) => base64Patterns(secret.value)),
      'g',
    ),
    // Pieces too: a run of hexadecimal has no words to mistake them for.
    hex: alternation(
      [...anywhere, ...words].flatMap(({ value }) => formSpellings(value).map(hexPattern)),
      'gi',
    ),
    // `  authorization: Bearer …` in an exchange, `> cookie: …`, `set-cookie: …` in a response.
    // The value ends at the line's end, or at markup a report wrote after it (`</pre>`): server text in an
    // HTML report has its own `<` escaped.
    headerLine: new RegExp(
      `^([ \\t>< -]*)(${names})([ \\t]*:[ \\t]*)((?:(?!</[a-z][a-z0-9]*>)[^\\r\\n])*)`,
      'gim',
    ),
    // `"authorization": "…"` in a JSON body that echoes the request's headers, and its cousins.
    // A run of backslashes before a quote is read from its start only (`dumpedNames` counts it).
    headerDump: new RegExp(
      [
        `(?<!\\\\)(?<before>\\\\*)(?<quote>["'])${dumpedName}(?:(?<closing>\\\\*)\\k<quote>|\\])${arrowOrColon}`,
        `(?<bracket>\\[)${dumpedName}[[\\]]${arrowOrColon}`,
        `(?<![\\w-])(?:${names})=`,
      ].join('|'),
      'gi',
    ),
  }
}
