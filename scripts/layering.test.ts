import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Arrows run down: the library (what the package ships: contract/, mocks/, suites/ less tests, proof
// and the example apps, as scripts/tsconfig.build.json leaves them out) never imports the command-line
// entry points above it, nor the test-only code beside it.
const root = fileURLToPath(new URL('..', import.meta.url))
const testOnly = (path: string) =>
  /\.test\.[cm]?tsx?$/.test(path) || /(^|\/)proof\//.test(path) || /^mocks\/(example|recipes)/.test(path)

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path)
    return /\.(ts|tsx|mjs|mts)$/.test(entry.name) ? [path] : []
  })
}

const library = ['contract', 'mocks', 'suites'].flatMap(sources).filter((path) => !testOnly(path))
const importsOf = (path: string) =>
  [
    ...readFileSync(join(root, path), 'utf8').matchAll(
      /\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g,
    ),
  ].map(([, specifier]) => relative(root, resolve(root, dirname(path), specifier ?? '')))

describe('the library’s imports', () => {
  it('has library files to check', () => {
    expect(library.length).toBeGreaterThan(50)
  })

  it('never reach up into scripts/ nor into test-only code', () => {
    const wrong = library.flatMap((path) =>
      importsOf(path)
        .filter((target) => target.startsWith('scripts/') || testOnly(target))
        .map((target) => `${path} -> ${target}`),
    )
    expect(wrong).toEqual([])
  })
})
