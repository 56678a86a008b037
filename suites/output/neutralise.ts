// Makes server text inert for each sink: terminal controls, bidi tricks, CI commands, Markdown, XML.
/**
 * Text a server sent, made inert for the output it goes to. Each function is for one kind of sink; none
 * trusts the text it is given. The console and file writers (output-boundary.ts) apply the whole-output
 * ones (`forConsole`, `visibleControls`, `forJsonText`); report formats apply the Markdown and XML ones where
 * they place server text, since only they know what surrounds it.
 */

// C0 but tab and line feed, DEL, C1 (U+0085 NEL included: some terminals take it as a new line).
const controls = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f'
// Bidi embeddings, overrides and isolates, the marks, and the line/paragraph separators: they reorder or
// split what a reader sees without being seen (CVE-2021-42574, "Trojan Source").
const invisible = '\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069'
const hidden = new RegExp(`[${controls}${invisible}]`, 'g')
const hiddenOrNewline = new RegExp(`[${controls}${invisible}\\n]`, 'g')

/** The first character of `text` a terminal or a bidi-aware viewer would act on, if any (for proofs). */
export function activeCharacter(text: string): string | undefined {
  return new RegExp(`[${controls}${invisible}]`).exec(text)?.[0]
}

function escapeCode(char: string): string {
  const code = char.charCodeAt(0)
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * Control characters (C0 but tab and newline, ESC, DEL, C1) and the invisible bidi and separator
 * characters written as visible escapes (`\x1b`, `\u202e`): none can move a cursor, change a colour, open
 * a link, or reorder what a reader sees.
 * @example visibleControls('\x1b[2J') // '\\x1b[2J'
 */
export function visibleControls(text: string): string {
  return text.replace(hidden, escapeCode)
}

/**
 * Text for a terminal and a CI log: `visibleControls`, then no line can be a CI workflow command. GitHub's
 * runner (ActionCommand.TryParseV2) runs a line that starts with `::` once leading white space is trimmed,
 * and (TryParse, the older form) one holding `##[` anywhere; Azure Pipelines runs `##vso[` anywhere in a
 * line. The first `:` of such a line and the second `#` of `##[` are written as escapes (`\x3a`, `\x23`).
 * A carriage return, which the runner also takes as the end of a line, is already an escape.
 * @example forConsole('::add-mask::x') // '\\x3a:add-mask::x'
 */
export function forConsole(text: string): string {
  return defuseWorkflowCommands(visibleControls(text), '\\x3a', '\\x23')
}

/**
 * No line of `text` is a workflow command (see `forConsole`), for a file a pipeline may `cat` into its
 * log: the `:` and `#` that would make one are written as `colon` and `hash`, an escape of the file's own
 * format where it has one (`&#58;` in HTML and XML, `\u0023` in a JSON string), so what it shows is unchanged.
 */
export function defuseWorkflowCommands(text: string, colon: string, hash: string): string {
  // `##[` (GitHub), `##vso[` (Azure Pipelines), `##teamcity[` (TeamCity service messages).
  return text
    .replace(/##(?=[A-Za-z]*\[)/g, `#${hash}`)
    .replace(leadingColon, `$1${colon}`)
    .replace(/\r/g, '\\r')
}

// A line's leading white space, then `::`. Only white space inside the line: `\s*` would cross line ends
// and read a run of blank lines again from each of its line starts (quadratic), to reach the colon that the
// last of them reaches anyway.
const leadingColon = /^([^\S\n\r\u2028\u2029]*):(?=:)/gm

/**
 * A JSON document's text with the characters a terminal or a bidi-aware viewer would act on (`cat
 * conformance.json` in a CI log) written as `\uXXXX` escapes. JSON.stringify already escapes C0 and lone
 * surrogates; what it leaves raw here can only sit inside strings, so the value read back is unchanged.
 */
export function forJsonText(json: string): string {
  return json.replace(hidden, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function longestRun(text: string, char: string): number {
  let longest = 0
  let run = 0
  for (const c of text) {
    run = c === char ? run + 1 : 0
    if (run > longest) longest = run
  }
  return longest
}

/**
 * Server text as one Markdown code span it cannot close: delimited by one backtick more than its longest
 * run of backticks (CommonMark §6.1), on one line (a newline would let the next line start a block:
 * a heading, a fence), with its controls visible. In a code span, HTML, links, images and emphasis are
 * text.
 * @example markdownCode('a`b') // '``a`b``'
 */
export function markdownCode(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, '\\n').replace(hidden, escapeCode)
  if (flat === '') return '` `'
  const fence = '`'.repeat(longestRun(flat, '`') + 1)
  // A span that starts or ends with a backtick or a space needs a space each side (one is stripped again).
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : ''
  return `${fence}${pad}${flat}${pad}${fence}`
}

/**
 * `markdownCode` for a GFM table cell: a `|` splits cells even inside a code span, and `\|` is the one
 * escape the table reads before the span (GFM §4.10), so every `|` is escaped. A backslash of the text
 * just before a `|` is written `\x5c`: left as it is, it would escape the backslash added (`\\|`), and the
 * `|` would end the cell in the middle of the span, its rest read as Markdown and HTML.
 */
export function markdownCell(text: string): string {
  return markdownCode(text.replace(/\\(?=\|)/g, '\\x5c')).replaceAll('|', '\\|')
}

/**
 * Server text as a fenced code block it cannot close: backticks one longer than its longest run (at least
 * three); a closing fence must be at least as long (CommonMark §4.5). Controls visible, lines kept.
 */
export function markdownFence(text: string): string {
  const body = text.replace(/\r\n?/g, '\n').replace(hidden, escapeCode)
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1))
  return `${fence}\n${body}\n${fence}`
}

/**
 * Server text inside an HTML block of a Markdown page (`<summary>`): HTML-escaped in a `<code>` element,
 * on one line (a blank line would end the block and let Markdown in).
 */
export function markdownInlineHtml(text: string): string {
  const flat = text
    .replace(hiddenOrNewline, (char) => (char === '\n' ? '\\n' : escapeCode(char)))
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
  return `<code>${flat}</code>`
}

// XML 1.0 §2.2 allows tab, newline, carriage return and the rest from U+0020; a server's bytes may hold others.
const xmlForbidden = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu

/** Only characters XML 1.0 allows: the others (lone surrogates, U+FFFE) become U+FFFD. */
export function xmlCharacters(text: string): string {
  return text.replace(xmlForbidden, '\ufffd')
}

/** Text for XML content or a double-quoted attribute: allowed characters, controls visible, `& < > "` escaped. */
export function xmlEscape(text: string): string {
  return xmlCharacters(visibleControls(text))
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
}

/** Text as a CDATA section: `]]>` cannot end it early, split across two sections. */
export function xmlCdata(text: string): string {
  return `<![CDATA[${xmlCharacters(visibleControls(text)).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`
}
