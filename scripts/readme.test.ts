import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { errorCodes } from '../mocks/core/error-codes.ts'

const root = new URL('..', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')

/** Every page a reader is sent to: the README, the pages beside it and everything in docs/. */
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
].map((path) => ({ path, text: read(path) }))

/** The text outside fenced code blocks: a `[x](y)` or a heading inside a code sample is not one. */
function prose(text: string): string {
  return text.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '')
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const [, heading = ''] of prose(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const slug = heading
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    result.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return result
}

describe('the README and the docs show what the code does', () => {
  const snippets = pages.flatMap(({ path: page, text }) =>
    [...text.matchAll(/<!-- snippet: (\S+) -->\n```\w*\n([\s\S]*?)```/g)].map((match) => ({
      page,
      path: match[1] ?? '',
      shown: match[2] ?? '',
    })),
  )

  it('has snippets to check, the README among them', () => {
    expect(snippets.length).toBeGreaterThan(0)
    expect(snippets.some((snippet) => snippet.page === 'README.md')).toBe(true)
  })

  it('marks no snippet that the check above cannot read', () => {
    const marks = pages.flatMap(({ path, text }) => [...text.matchAll(/^<!-- snippet:/gm)].map(() => path))
    expect(marks).toHaveLength(snippets.length)
  })

  it.each(snippets.map(({ page, path, shown }) => [page, path, shown]))(
    '%s shows %s exactly as the file that npm test runs',
    (_page, path, shown) => {
      expect(shown).toBe(read(path))
    },
  )

  it('lists every error code the mock sends, with its status, in one table', () => {
    // The table whose header is `| code | status |`; other tables may hold a code and a number too.
    const tables = pages.flatMap(({ path, text }) =>
      [...text.matchAll(/^\|\s*code\s*\|\s*status\s*\|.*\n(?:\|.*\n?)*/gm)].map((table) => ({
        path,
        rows: [...table[0].matchAll(/^\|\s*`(\w+)`\s*\|\s*(\d{3})\s*\|/gm)].map((match) => [
          match[1],
          Number(match[2]),
        ]),
      })),
    )
    expect(tables.map((table) => table.path)).toHaveLength(1)
    expect(Object.fromEntries(tables[0]?.rows ?? [])).toEqual(errorCodes)
  })
})

describe('every relative link in the README and the docs leads somewhere', () => {
  const links = pages.flatMap(({ path: page, text }) =>
    [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ page, target })),
  )

  it('has links to check', () => {
    expect(links.length).toBeGreaterThan(0)
  })

  it.each(links.map(({ page, target }) => [page, target]))('%s: %s', (page, target) => {
    const [file = '', anchor] = target.split('#')
    const url = file === '' ? new URL(page, root) : new URL(file, new URL(page, root))
    expect(existsSync(url), `${url.pathname} does not exist`).toBe(true)
    if (anchor !== undefined) {
      expect(anchors(readFileSync(url, 'utf8')), `no heading makes #${anchor}`).toContain(anchor)
    }
  })
})

describe('every test file the docs name', () => {
  // A guarantee is only as good as the test the docs point to: a renamed or deleted proof must not leave
  // the docs naming a file that no longer runs.
  const named = [
    ...new Set(
      pages.flatMap(({ text }) =>
        [...text.matchAll(/`((?:contract|mocks|suites|scripts)\/[\w./-]+\.test\.tsx?)`/g)].map(
          (match) => match[1] ?? '',
        ),
      ),
    ),
  ]

  it('has test files named in the docs', () => {
    expect(named.length).toBeGreaterThan(10)
  })

  it.each(named)('%s exists', (path) => {
    expect(existsSync(new URL(path, root)), `${path} is named in the docs but does not exist`).toBe(true)
  })
})
