import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'

const root = new URL('..', import.meta.url).pathname

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', '.git', 'reports', '.scratch', 'dist'].includes(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

it('parses the YAML contract in exactly one module, scripts/read-document.ts', () => {
  const parsers = sources(root)
    .filter((path) => /from 'yaml'/.test(readFileSync(path, 'utf8')))
    .map((path) => relative(root, path))
  expect(parsers).toEqual(['scripts/read-document.ts'])
})
