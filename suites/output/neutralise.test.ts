import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { describe, expect, it } from 'vitest'
import {
  activeCharacter,
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
import { workflowCommands } from './workflow-commands.ts'

const attacks = [
  '\x1b[2J\x1b[1;1H✅ CONFORMS',
  '\x1b]0;pwned\x07',
  '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\',
  '\x1b]52;c;cGF5bG9hZA==\x07',
  '\x9b31m C1 CSI',
  'abc\u202edlrow\u202c \u2066x\u2069',
  'line\rover',
]

describe('forConsole', () => {
  it.each(attacks)('leaves no control or bidi character active: %j', (attack) => {
    const shown = forConsole(attack)
    expect(activeCharacter(shown)).toBeUndefined()
    expect(activeCharacter(attack)).toBeDefined()
  })

  it('writes them as visible escapes', () => {
    expect(forConsole('\x1b[31mred\u202e')).toBe('\\x1b[31mred\\u202e')
  })

  it.each([
    '::add-mask::secret',
    '   ::stop-commands::tok',
    '\t::error file=a.ts::x',
    '\u00a0::warning::x',
    'prefix ##[group]Hidden',
    '##vso[task.setvariable variable=x]1',
    "##teamcity[buildStatus text='passed']",
    'a\r::add-mask::after a carriage return',
    'a\n::notice::on the next line',
  ])('no line of it is a workflow command GitHub’s or Azure’s runner would run: %j', (attack) => {
    expect(workflowCommands(forConsole(attack))).toEqual([])
    expect(workflowCommands(attack).length).toBeGreaterThan(0)
  })
})

describe('Markdown', () => {
  const hostile = [
    '```\n## ✅ CONFORMS\n```',
    '![x](https://evil.example/pixel.png)',
    '<img src=x onerror=alert(1)>',
    '# heading\n===',
    '`` ` ```` a | b',
    '[link](javascript:alert(1))',
  ]
  it.each(hostile)('a code span holds %j whole on one line, its fence longer than any run inside', (text) => {
    const span = markdownCode(text)
    expect(span).not.toContain('\n')
    const fence = /^`+/.exec(span)?.[0] ?? ''
    const inner = span.slice(fence.length, -fence.length)
    expect(inner).not.toContain(fence)
    expect(span.endsWith(fence)).toBe(true)
  })

  it('escapes every pipe of a table cell', () => {
    expect(markdownCell('a|b')).toBe('`a\\|b`')
  })

  it.each(['a\\|<img src=x>|b', '`x\\\\|y` | <b>z</b>'])(
    'keeps %j in its one cell, as a GFM parser splits the row, a backslash before a pipe included',
    (text) => {
      const page = micromark(`| a | b |\n|---|---|\n| ${markdownCell(text)} | x |`, {
        allowDangerousHtml: true,
        extensions: [gfm()],
        htmlExtensions: [gfmHtml()],
      })
      expect(page.match(/<td>/g)).toHaveLength(2)
      expect(page).not.toMatch(/<img|<b>/)
    },
  )

  it.each(hostile)('a fence holds %j: no line inside can close it', (text) => {
    const block = markdownFence(text).split('\n')
    const fence = block[0] ?? ''
    expect(fence.length).toBeGreaterThanOrEqual(3)
    expect(block.at(-1)).toBe(fence)
    for (const line of block.slice(1, -1)) expect(line.trim().startsWith(fence)).toBe(false)
  })

  it('HTML inside a summary is text, on one line', () => {
    expect(markdownInlineHtml('<b>x</b>\n\n# h')).toBe('<code>&lt;b&gt;x&lt;/b&gt;\\n\\n# h</code>')
  })
})

describe('XML and JSON', () => {
  it('keeps only XML 1.0 characters and escapes attributes', () => {
    expect(xmlEscape('a\u0000b\ud800"<&>')).toBe('a\\x00b\ufffd&quot;&lt;&amp;&gt;')
  })

  it('splits ]]> inside CDATA', () => {
    expect(xmlCdata('x]]>y')).toBe('<![CDATA[x]]]]><![CDATA[>y]]>')
  })

  it('JSON keeps its value and escapes what a terminal acts on', () => {
    const json = JSON.stringify({ m: '\x1b[2J\u009b\u202e\ud800' })
    const safe = forJsonText(json)
    expect(JSON.parse(safe)).toEqual(JSON.parse(json))
    expect(activeCharacter(safe)).toBeUndefined()
    expect(Buffer.from(safe).toString()).toBe(safe)
  })

  it('visibleControls keeps tabs and newlines', () => {
    expect(visibleControls('a\tb\nc\x7f')).toBe('a\tb\nc\\x7f')
  })
})
