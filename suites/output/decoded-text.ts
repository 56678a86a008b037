// Server text with every escape undone and mapped back, so the redactor finds a secret however it is escaped.
/**
 * Text as a reader would read it once every escape in it is undone, with where each character came from:
 * the redactor looks for secrets here, so that a secret echoed with some or all of its characters escaped
 * (as frameworks do when they echo a header: a URL, a JSON string, an HTML page) is found like a plain one,
 * and what it replaces is the escaped text itself.
 *
 * Undone, character by character, whatever mixes them:
 * - percent-encoding (`%2F`; `%252F`, encoded twice; UTF-8 sequences of several bytes);
 * - backslash escapes (`\/` from PHP's json_encode, `\u002f`, `\x2f`, octal `\057`, any run of backslashes
 *   before them: JSON inside JSON); a letter after a backslash (`\n`) is another character, not itself;
 * - HTML character references, numeric (`&#47;`, `&#x2F;`, Go's `&#43;`) or named (`&sol;`), escaped again
 *   any number of times (`&amp;#47;`).
 * Letters are lower-cased: secrets are matched in any case (Turkish İ and ı are i).
 */
export interface DecodedText {
  /** The decoded, lower-cased text. */
  text: string
  /**
   * Where the decoded text came from, one entry per escape undone, in order: the escape's index in the
   * decoded text (`at`), its length there, and where it was in the original (`from` to `to`). Between two
   * escapes the decoded text is the original as it is, shifted.
   */
  at: number[]
  length: number[]
  from: number[]
  to: number[]
}

// HTML5's names for the punctuation keys and passwords are made of; some encoders write these.
const namedReferences: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  bsol: '\\',
  plus: '+',
  equals: '=',
  lowbar: '_',
  underbar: '_',
  period: '.',
  colon: ':',
  commat: '@',
  hyphen: '-',
  dash: '-',
  tilde: '~',
  excl: '!',
  num: '#',
  dollar: '$',
  percnt: '%',
  ast: '*',
  comma: ',',
  semi: ';',
  quest: '?',
  hat: '^',
  grave: '`',
  verbar: '|',
  vert: '|',
  lsqb: '[',
  lbrack: '[',
  rsqb: ']',
  rbrack: ']',
  lcub: '{',
  lbrace: '{',
  rcub: '}',
  rbrace: '}',
  lpar: '(',
  rpar: ')',
  nbsp: '\u00a0',
}

const percent = /%(?:25)*([0-9a-f]{2})/iy
const backslash = /\\+(?:u([0-9a-f]{4})|x([0-9a-f]{2})|([\s\S]))/iy
const reference = /&(?:amp;)*(?:#(?:x([0-9a-f]{1,6})|([0-9]{1,7}));?|([a-z]{2,12});)/iy

// Turkish letter case (Java's toUpperCase on a tr_TR server): İ and ı are the key's i.
const turkishI = /[\u0130\u0131]/g

function lower(char: string): string {
  const dotless = char.replace(turkishI, 'i')
  const lowered = dotless.toLowerCase()
  return lowered.length === dotless.length ? lowered : dotless
}

/**
 * `text` with every escape undone and letters lower-cased (see `DecodedText`).
 * @example decodeText('a%2Fb&#43;').text // 'a/b+'
 */
export function decodeText(text: string): DecodedText {
  let lowered = text.toLowerCase()
  // A letter whose lower case has another length (İ) would shift every index after it: such text is
  // lower-cased a character at a time, the odd ones kept as they are.
  if (lowered.length !== text.length) lowered = Array.from(text, lower).join('')
  else if (lowered.includes('\u0131')) lowered = lowered.replace(turkishI, 'i')
  const decoded: DecodedText = { text: lowered, at: [], length: [], from: [], to: [] }
  const out: string[] = []
  let done = 0
  let length = 0
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code !== 0x25 && code !== 0x5c && code !== 0x26) continue
    const escaped = decodeAt(text, at)
    if (escaped === undefined) continue
    const [value, end] = escaped
    const shown = lower(value)
    out.push(lowered.slice(done, at), shown)
    length += at - done
    decoded.at.push(length)
    decoded.length.push(shown.length)
    decoded.from.push(at)
    decoded.to.push(end)
    length += shown.length
    done = end
    at = end - 1
  }
  if (done === 0) return decoded
  out.push(lowered.slice(done))
  decoded.text = out.join('')
  return decoded
}

/**
 * The text `decoded` was read from, its escapes undone as `decodeText` undid them but its letters in their
 * own case: base64 is read here, whose letters' case is data. It is `decoded.text` index for index, so
 * `originalRange` maps a range of it back to the original text as well.
 * @example unescapedText('Zm9v&#43;YQ') // 'Zm9v+YQ'
 */
export function unescapedText(text: string, decoded: DecodedText = decodeText(text)): string {
  const parts: string[] = []
  let done = 0
  for (const [index, from] of decoded.from.entries()) {
    parts.push(text.slice(done, from), (decodeAt(text, from) as [string, number])[0])
    done = decoded.to[index] as number
  }
  parts.push(text.slice(done))
  return parts.join('')
}

const isOctal = (code: number) => code >= 0x30 && code <= 0x37

const isHex = (code: number) =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66)

/** The escape that starts at `at`, undone, and where it ends; undefined when none starts there. */
function decodeAt(text: string, at: number): [string, number] | undefined {
  const char = text.charCodeAt(at)
  if (char === 0x25) {
    if (!isHex(text.charCodeAt(at + 1)) && text.charCodeAt(at + 1) !== 0x32) return undefined
    const bytes: number[] = []
    let end = at
    percent.lastIndex = at
    // One character: as many bytes as its UTF-8 lead byte says (a run of escapes is several characters).
    let length = 1
    for (let match = percent.exec(text); match && bytes.length < length; match = percent.exec(text)) {
      bytes.push(Number.parseInt(match[1] as string, 16))
      end = percent.lastIndex
      const lead = bytes[0] as number
      if (bytes.length === 1) length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1
    }
    return bytes.length === 0 ? undefined : [Buffer.from(bytes).toString('utf8'), end]
  }
  if (char === 0x5c) {
    // The common case first, without a regular expression: one backslash before a character.
    const next = text.charCodeAt(at + 1)
    const letter = (next | 0x20) >= 0x61 && (next | 0x20) <= 0x7a
    // `\n`, `\t`: a letter after a backslash is another character (or none), never itself escaped.
    if (letter && (next | 0x20) !== 0x75 && (next | 0x20) !== 0x78) return undefined
    // `\163`: an octal escape (C, Python's bytes, a shell's printf).
    if (next >= 0x30 && next <= 0x33 && isOctal(text.charCodeAt(at + 2)) && isOctal(text.charCodeAt(at + 3)))
      return [String.fromCharCode(Number.parseInt(text.slice(at + 1, at + 4), 8)), at + 4]
    if (next !== 0x5c && !letter && at + 1 < text.length) return [text[at + 1] as string, at + 2]
    backslash.lastIndex = at
    const match = backslash.exec(text)
    if (!match) return undefined
    const [, unicode, byte, escaped] = match
    const code = unicode ?? byte
    return [
      code === undefined ? (escaped as string) : String.fromCharCode(Number.parseInt(code, 16)),
      backslash.lastIndex,
    ]
  }
  const next = text.charCodeAt(at + 1)
  if (next !== 0x23 && ((next | 0x20) < 0x61 || (next | 0x20) > 0x7a)) return undefined
  reference.lastIndex = at
  const match = reference.exec(text)
  if (!match) return undefined
  const [, hexCode, decimalCode, name] = match
  const code =
    hexCode !== undefined
      ? Number.parseInt(hexCode, 16)
      : decimalCode !== undefined
        ? Number(decimalCode)
        : undefined
  const value =
    code !== undefined && code <= 0x10ffff
      ? String.fromCodePoint(code)
      : name !== undefined
        ? namedReferences[name.toLowerCase()]
        : undefined
  return value === undefined ? undefined : [value, reference.lastIndex]
}

/** The original index of decoded index `index`, taking its escape's start (or its end, for `end`). */
function originalIndex(decoded: DecodedText, index: number, end: boolean): number {
  // The last escape that starts at or before `index` (binary search).
  let low = 0
  let high = decoded.at.length - 1
  let found = -1
  while (low <= high) {
    const middle = (low + high) >> 1
    if ((decoded.at[middle] as number) <= index) {
      found = middle
      low = middle + 1
    } else high = middle - 1
  }
  if (found < 0) return index
  const at = decoded.at[found] as number
  const length = decoded.length[found] as number
  if (index < at + length) return end ? (decoded.to[found] as number) : (decoded.from[found] as number)
  return (decoded.to[found] as number) + (index - at - length)
}

/** The range of the original text that the decoded characters `start` to `end` (exclusive) came from. */
export function originalRange(decoded: DecodedText, start: number, end: number): [number, number] {
  return [
    originalIndex(decoded, start, false),
    originalIndex(decoded, end - 1, true) + (isInEscape(decoded, end - 1) ? 0 : 1),
  ]
}

function isInEscape(decoded: DecodedText, index: number): boolean {
  let low = 0
  let high = decoded.at.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    const at = decoded.at[middle] as number
    if (index < at) high = middle - 1
    else if (index >= at + (decoded.length[middle] as number)) low = middle + 1
    else return true
  }
  return false
}
