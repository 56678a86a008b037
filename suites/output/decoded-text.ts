/**
 * Text as a reader would read it once every escape in it is undone, with where each character came from:
 * the redactor looks for secrets here, so that a secret echoed with some or all of its characters escaped
 * (as frameworks do when they echo a header: a URL, a JSON string, an HTML page) is found like a plain one,
 * and what it replaces is the escaped text itself.
 *
 * Undone, character by character, whatever mixes them:
 * - percent-encoding (`%2F`; `%252F`, encoded twice; UTF-8 sequences of several bytes);
 * - backslash escapes (`\/` from PHP's json_encode, `\u002f`, `\x2f`, any run of backslashes before them:
 *   JSON inside JSON);
 * - HTML character references, numeric (`&#47;`, `&#x2F;`, Go's `&#43;`) or named (`&sol;`), escaped again
 *   any number of times (`&amp;#47;`).
 * Letters are lower-cased: secrets are matched in any case.
 */
export interface DecodedText {
  /** The decoded, lower-cased text. */
  text: string
  /** Where the decoded character at an index starts in the original text; `undefined`: the same index. */
  from: number[] | undefined
  /** Where it ends (exclusive); `undefined`: the index plus one. */
  to: number[] | undefined
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

function lower(char: string): string {
  const lowered = char.toLowerCase()
  return lowered.length === char.length ? lowered : char
}

/**
 * `text` with every escape undone and letters lower-cased (see `DecodedText`).
 * @example decodeText('a%2Fb&#43;').text // 'a/b+'
 */
export function decodeText(text: string): DecodedText {
  // Most text has nothing to undo: one lower-casing, and the identity for positions.
  if (!/[%\\&]/.test(text)) {
    const lowered = text.toLowerCase()
    if (lowered.length === text.length) return { text: lowered, from: undefined, to: undefined }
  }
  const out: string[] = []
  const from: number[] = []
  const to: number[] = []
  const emit = (chars: string, start: number, end: number) => {
    for (const unit of lower(chars)) {
      for (let index = 0; index < unit.length; index++) {
        out.push(unit[index] as string)
        from.push(start)
        to.push(end)
      }
    }
  }
  let at = 0
  while (at < text.length) {
    const char = text[at] as string
    if (char === '%') {
      const bytes: number[] = []
      let end = at
      percent.lastIndex = at
      for (let match = percent.exec(text); match; match = percent.exec(text)) {
        bytes.push(Number.parseInt(match[1] as string, 16))
        end = percent.lastIndex
        if ((bytes[0] as number) < 0x80) break
      }
      if (bytes.length > 0) {
        emit(Buffer.from(bytes).toString('utf8'), at, end)
        at = end
        continue
      }
    } else if (char === '\\') {
      backslash.lastIndex = at
      const match = backslash.exec(text)
      if (match) {
        const [, unicode, byte, escaped] = match
        const code = unicode ?? byte
        emit(
          code === undefined ? (escaped as string) : String.fromCharCode(Number.parseInt(code, 16)),
          at,
          backslash.lastIndex,
        )
        at = backslash.lastIndex
        continue
      }
    } else if (char === '&') {
      reference.lastIndex = at
      const match = reference.exec(text)
      const [, hexCode, decimalCode, name] = match ?? []
      const code =
        hexCode !== undefined
          ? Number.parseInt(hexCode, 16)
          : decimalCode !== undefined
            ? Number(decimalCode)
            : undefined
      const decoded =
        code !== undefined && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : name !== undefined
            ? namedReferences[name.toLowerCase()]
            : undefined
      if (match && decoded !== undefined) {
        emit(decoded, at, reference.lastIndex)
        at = reference.lastIndex
        continue
      }
    }
    const code = text.codePointAt(at) ?? 0
    const whole = code > 0xffff ? text.slice(at, at + 2) : char
    emit(whole, at, at + whole.length)
    at += whole.length
  }
  return { text: out.join(''), from, to }
}

/** The range of the original text that the decoded characters `start` to `end` (exclusive) came from. */
export function originalRange(decoded: DecodedText, start: number, end: number): [number, number] {
  return [decoded.from?.[start] ?? start, decoded.to?.[end - 1] ?? end]
}
