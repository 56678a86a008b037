import { describe, expect, it } from 'vitest'
import { unescapedText } from './decoded-text.ts'
import { hexDumpRanges } from './hex-dump.ts'
import {
  defuseWorkflowCommands,
  forConsole,
  forJsonText,
  markdownCell,
  markdownCode,
  markdownFence,
  markdownInlineHtml,
  visibleControls,
  xmlCdata,
  xmlEscape,
} from './neutralise.ts'
import { createOutput } from './output-boundary.ts'
import { Secrets } from './secrets.ts'
import { workflowCommands } from './workflow-commands.ts'

/**
 * Every reading of server text in the output boundary costs time in proportion to the text: a hostile
 * server must not be able to stall the run (or its CI job) with one long header. Each reader below reads a
 * run of one unit repeated (one character of a class some pattern repeats, or a short piece of an escape,
 * a dump or a header dump), 64 KiB long, and eight runs of 8 KiB: the same number of characters. The one
 * long run may cost at most `maxGrowth` times the eight short ones.
 *
 * No absolute time is asserted (the project has no timed assertions): only how the cost grows, measured in
 * the same test. Work in proportion to the text costs the same for both; work retried at every position of
 * a run costs 8 times as much for the long one (5.9 to 9.2 measured on the quadratic readers this test was
 * written against). The bound sits between the two, with room for a noisy machine either way.
 */
const small = 8 * 1024
const times = 8
const maxGrowth = 4

const apiKey = 'sk_live_Q7f3Zp9W+/'
const headerSecret = 'hdr-Tok3n+Secret/42='
const baseUrl = 'https://deploy:p%2Bss%2FW0rd%3D!@staging.example/v1'

/** What reads the text: made once for a test, outside the measured time, and given every text of it. */
type Reader = (text: string) => unknown

/** The run's secrets, compiled before the clock starts. */
function runSecrets(): Secrets {
  const secrets = Secrets.forRun({ apiKey, baseUrl })
    .add(headerSecret, 'secret header')
    .addHeader('x-api-token')
  secrets.redact('')
  return secrets
}

/** The output boundary, writing nowhere. */
const outputNowhere = () => createOutput(runSecrets(), { stdout: () => {}, stderr: () => {} })

const hexOf = (text: string) => Buffer.from(text).toString('hex')
const base64Of = (text: string) => Buffer.from(text).toString('base64')
const everyCharacter = (text: string, spell: (code: number) => string) =>
  [...text].map((char) => spell(char.charCodeAt(0))).join('')
const jsonEscaped = (text: string) =>
  everyCharacter(text, (code) => `\\u${code.toString(16).padStart(4, '0')}`)
const dumpLine = `00000000  73 6b 5f 6c 69 76 65 5f  51 37 66 33 5a 70 39 57  |${apiKey.slice(0, 16)}|\n`

/** One character of every class a pattern of the redactor repeats, and the escapes and shapes it reads. */
const redactionUnits = [
  // letters, digits, hexadecimal, the base64 alphabets, padding
  'a',
  'Z',
  '0',
  '7',
  'f',
  '+',
  '/',
  '-',
  '_',
  '=',
  // what starts or continues an escape
  '%',
  '%2',
  '%25',
  '%41',
  '%C3%A9',
  '\\',
  '\\\\n',
  '\\u00',
  '\\u002B',
  '\\x4',
  '\\05',
  '&',
  '&#',
  '&#x',
  '&#43;',
  '&#x2B;',
  '&amp;',
  '#',
  ';',
  // white space and line breaks (wrapped base64, header lines, dump lines)
  ' ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  'A\n',
  'A\\n',
  'ab ',
  'ab:',
  // quotes, brackets and markup (header dumps, header lines)
  '"',
  "'",
  '[',
  ']',
  '<',
  '</a',
  ':',
  '"cookie":',
  '\\"cookie\\":',
  '"cookie":{"cookie":"b",',
  '"set-cookie":["x",',
  '[HTTP_COOKIE] =>',
  'cookie=',
  'authorization: ',
  // a clip's end, after what may be the start of a secret
  '…',
  'a…',
  `${'0'.repeat(200)}…`,
  `${'ab'.repeat(100)}\n…`,
  // letters whose lower case differs in length (Turkish İ)
  'İ',
  'ı',
  // the secrets themselves, in their encodings and escaped
  apiKey,
  base64Of(apiKey),
  hexOf(apiKey),
  dumpLine,
  jsonEscaped(base64Of(`user:${apiKey}`)),
  base64Of(headerSecret).replaceAll('+', '&#43;').replaceAll('/', '&#47;').replaceAll('=', '&#61;'),
  everyCharacter(hexOf(headerSecret), (code) => `%${code.toString(16)}`),
]

const neutraliserUnits = [
  'a',
  ' ',
  '\n',
  ' \n',
  '\r',
  '\r\n',
  ':',
  '::',
  ' :',
  '#',
  '##',
  '##[',
  '##vso',
  '`',
  '|',
  '\\|',
  '\\',
  ']]>',
  '&',
  '<',
  '\x1b',
  '\u202e',
  '\ud800',
]

const readers: { name: string; reader: () => Reader; units: string[] }[] = [
  {
    name: 'Secrets.redact (a response header)',
    reader: () => {
      const secrets = runSecrets()
      return (text) => secrets.redact(text)
    },
    units: redactionUnits,
  },
  {
    name: 'Secrets.redactDeep (a report)',
    reader: () => {
      const secrets = runSecrets()
      return (text) => secrets.redactDeep({ checks: [{ message: text }] })
    },
    units: ['\\', '\n', '%25', '&#43;', apiKey, '"cookie":'],
  },
  {
    name: 'decodeText and unescapedText',
    reader: () => unescapedText,
    units: [
      'a',
      'İ',
      '%',
      '%2',
      '%25',
      '%C3',
      '%F0%9F',
      '\\',
      '\\u',
      '\\x',
      '\\0',
      '\\\\n',
      '&',
      '&#',
      '&#x',
      '&amp;',
    ],
  },
  {
    name: 'hexDumpRanges (a secret on every line)',
    reader: () => (text) =>
      hexDumpRanges(text, (decoded) =>
        Array.from({ length: decoded.length >> 4 }, (_, line) => [16 * line, 16 * line + 4]),
      ),
    units: ['0', ' ', '\t', '\n', '0000 ', '0000  41 ', '00000000  41 42 43 44\n', dumpLine, '|'],
  },
  ...Object.entries({
    forConsole,
    visibleControls,
    forJsonText,
    markdownCode,
    markdownCell,
    markdownFence,
    markdownInlineHtml,
    xmlEscape,
    xmlCdata,
    'defuseWorkflowCommands (HTML)': (text: string) => defuseWorkflowCommands(text, '&#58;', '&#35;'),
  }).map(([name, read]) => ({ name, reader: () => read, units: neutraliserUnits })),
  {
    name: 'workflowCommands',
    reader: () => workflowCommands,
    units: ['a', ' ', '\n', '\r', ':', '::', '#', '##[', '##vso[', '[', ']'],
  },
  {
    name: 'the output boundary (a console line)',
    reader: () => {
      const output = outputNowhere()
      return (text) => output.out(text)
    },
    units: ['\\', '\n', '::', '##[', apiKey],
  },
  {
    name: 'the output boundary (a stream written 16 characters at a time)',
    reader: () => {
      const output = outputNowhere()
      return (text) => {
        const stream = output.stream('stdout')
        for (let at = 0; at < text.length; at += 16) stream.write(text.slice(at, at + 16))
        stream.end()
      }
    },
    units: ['a', '\n', '\\', '::'],
  },
]

/** CPU time (user and system, in microseconds) of reading each of `texts`. */
function cpuTime(read: Reader, texts: string[]): number {
  const start = process.cpuUsage()
  for (const text of texts) read(text)
  const used = process.cpuUsage(start)
  return used.user + used.system
}

// Numbers the texts' header names, so that every text read is another: neither the redactor's memo nor the
// engine's cache of a regular expression's matches on one string answers a reading from an earlier one.
let serial = 0

/** `count` texts of `run`, each made flat before the clock starts (a regular expression flattens its subject). */
function textsOf(run: string, count: number): string[] {
  const texts = Array.from({ length: count }, () => `x-long-${serial++}: ${run}`)
  for (const text of texts) /$/.test(text)
  return texts
}

/**
 * How many times dearer, character for character, a text `times` as long is to read: the CPU time of
 * reading long texts over that of reading `times` as many short ones, the same number of characters. The
 * long text is read once first (code and expressions compiled); then the two batches are read in turns,
 * each long enough to be well above the clock's grain and about as long as the other (so a busy machine
 * slows either as much), and the least time of each is kept: the batch least disturbed by the machine.
 */
function growth(read: Reader, unit: string): number {
  const [short, long] = [small, times * small].map((size) => unit.repeat(Math.ceil(size / unit.length))) as [
    string,
    string,
  ]
  cpuTime(read, textsOf(long, 1))
  let count = 1
  while (cpuTime(read, textsOf(long, count)) < 1000 && count < 16) count *= 2
  let least = { short: Number.POSITIVE_INFINITY, long: Number.POSITIVE_INFINITY }
  for (let turn = 1; turn <= 8; turn++) {
    least = {
      short: Math.min(least.short, cpuTime(read, textsOf(short, times * count))),
      long: Math.min(least.long, cpuTime(read, textsOf(long, count))),
    }
    // Three turns settle it either way, unless it is near the bound.
    const ratio = least.long / least.short
    if (turn >= 3 && (ratio <= maxGrowth || ratio > 2 * maxGrowth)) break
  }
  return least.long / least.short
}

describe('reading server text in the output boundary', () => {
  for (const { name, reader, units } of readers)
    describe(name, () => {
      it.each(units.map((unit) => [JSON.stringify(unit).slice(0, 40), unit]))(
        'costs time in proportion to a long run of %s',
        (_, unit) => {
          expect(growth(reader(), unit)).toBeLessThanOrEqual(maxGrowth)
        },
      )
    })
})
