import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'

const root = new URL('..', import.meta.url).pathname

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', '.git', 'reports', '.scratch'].includes(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

it('reads the YAML contract in exactly one module, contract/read-document.ts', () => {
  const readers = sources(root)
    // Importing the YAML parser or naming the file in a string literal is how a module would read it.
    .filter((path) => /from 'yaml'|['"`][^'"`\n]*openapi\.yaml['"`]/.test(readFileSync(path, 'utf8')))
    .map((path) => relative(root, path))
  expect(readers).toEqual(['contract/read-document.ts'])
})
