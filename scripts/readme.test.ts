import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { errorCodes } from '../mocks/core/error-codes.ts'

const root = new URL('..', import.meta.url)
const readme = readFileSync(new URL('README.md', root), 'utf8')

describe('the README shows what the code does', () => {
  const snippets = [...readme.matchAll(/<!-- snippet: (\S+) -->\n```\w*\n([\s\S]*?)```/g)]

  it('has snippets to check', () => {
    expect(snippets.length).toBeGreaterThan(0)
  })

  it.each(snippets.map((match) => [match[1] ?? '', match[2] ?? '']))(
    'shows %s exactly as the file that npm test runs',
    (path, shown) => {
      expect(shown).toBe(readFileSync(new URL(path, root), 'utf8'))
    },
  )

  it('lists every error code the mock sends, with its status', () => {
    const rows = [...readme.matchAll(/^\|\s*`(\w+)`\s*\|\s*(\d{3})\s*\|/gm)].map((match) => [
      match[1],
      Number(match[2]),
    ])
    expect(Object.fromEntries(rows)).toEqual(errorCodes)
  })
})
