import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readImportGraph } from './layer-order.ts'

// A reader of the tree should learn what a file holds from its first lines, without reading its code:
// every source file opens with a `//` comment, either at the very top (after a `#!` or `/// <reference>`
// line) or as the first line that is not an import. Tests say what they hold in their names, and generated
// files in their headers, so both are left out.
const root = fileURLToPath(new URL('..', import.meta.url))

/** Whether a source text opens with a `//` comment: at its top, or as its first line that is not an import. */
function hasModuleComment(text: string): boolean {
  const lines = text.split(/\r?\n/)
  let index = 0
  while (index < lines.length && /^(#!|\/\/\/\s*<reference\b)/.test(lines[index] ?? '')) index++
  while (index < lines.length) {
    const line = (lines[index] ?? '').trim()
    if (line === '') {
      index++
    } else if (/^import\b.*\bfrom\s*['"]|^import\s*['"]/.test(line)) {
      index++
    } else if (/^import\s+(type\s+)?[{*]/.test(line)) {
      // A multi-line import runs to the line naming its module.
      while (index < lines.length && !/\bfrom\s*['"]/.test(lines[index] ?? '')) index++
      index++
    } else {
      return line.startsWith('//') && !line.startsWith('///')
    }
  }
  return false
}

const sources = [...readImportGraph(root).keys()].filter(
  (path) => !/\.test\.[cm]?tsx?$/.test(path) && !path.endsWith('.gen.ts'),
)

describe('module comments', () => {
  it('gives every source file a module comment saying what it holds', () => {
    expect(sources.length).toBeGreaterThan(200)
    const lacking = sources.filter((path) => !hasModuleComment(readFileSync(`${root}${path}`, 'utf8')))
    expect(
      lacking,
      `These files lack a \`//\` module comment at the top or after their imports:\n${lacking.join('\n')}`,
    ).toEqual([])
  })

  it('accepts the comment at the top, after a shebang or a reference line, or after the imports', () => {
    expect(hasModuleComment('// Holds x.\nexport const x = 1\n')).toBe(true)
    expect(hasModuleComment('#!/usr/bin/env node\n// Runs x.\nrun()\n')).toBe(true)
    expect(hasModuleComment('/// <reference types="vite/client" />\n\n// The page.\n')).toBe(true)
    expect(hasModuleComment("import {\n  a,\n  b,\n} from './a.ts'\nimport 'b'\n\n// Holds c.\n")).toBe(true)
  })

  it('rejects a file whose first statement or JSDoc comes before any line comment', () => {
    expect(hasModuleComment("import { a } from './a.ts'\n\nexport const b = a\n// late\n")).toBe(false)
    expect(hasModuleComment('/** A JSDoc is the export’s, not the module’s. */\nexport const x = 1\n')).toBe(
      false,
    )
    expect(hasModuleComment('/// <reference types="vite/client" />\nexport const x = 1\n')).toBe(false)
    expect(hasModuleComment('')).toBe(false)
  })
})
