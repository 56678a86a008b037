import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix, relative, resolve } from 'node:path'

// The order the code's imports run in, bottom first: a file may import its own layer and those below it,
// never one above. docs/architecture.md shows this table (npm run docs:tables) and scripts/layering.test.ts
// holds the code to it.

export interface Layer {
  /** Folder (with a trailing slash) or the files of one folder (`suites/*`), most specific wins. */
  path: string
  holds: string
}

export const layers: readonly Layer[] = [
  { path: 'contract/', holds: 'the OpenAPI document, its generated types and validators, the one loader' },
  {
    path: 'contract/diff/',
    holds: 'the contract diff: changes between two documents, whom each breaks, the diff’s findings',
  },
  { path: 'mocks/core/', holds: 'the mock’s transport-neutral core: one function over an injected store' },
  { path: 'mocks/', holds: 'the mock’s adapters: MSW handlers, node:http server, Prism, Playwright, Vite' },
  {
    path: 'suites/values/',
    holds: 'values generated from the contract: valid and invalid bodies, near-miss keys',
  },
  { path: 'suites/output/', holds: 'the output boundary: redaction, neutralising, clipping of server text' },
  {
    path: 'suites/network/',
    holds: 'the bounded client: deadlines, caps, pacing, proxies, connection watch',
  },
  { path: 'suites/judging/', holds: 'rules, findings, the judged exchange, what every response must keep' },
  { path: 'suites/engine/', holds: 'running checks: target, run state, building and sending requests' },
  { path: 'suites/checks/', holds: 'the checks themselves, their registry, coverage, the stateful model' },
  { path: 'suites/reporting/', holds: 'the report model, the baseline, every format' },
  { path: 'suites/run/', holds: 'a run’s stages: options, pre-flight, Prism, vitest, reports, exit code' },
  {
    path: 'suites/*',
    holds: 'the entry points: the public face, runConformance, the vitest file, its engine',
  },
  { path: 'scripts/cli/', holds: 'the option parser every command shares' },
  { path: 'scripts/', holds: 'the commands, the benchmark, the package build, the docs’ tables' },
]

/** Tests, proof servers and the example apps: they may import anything, and nothing shipped imports them. */
export function isTestOnly(path: string): boolean {
  return (
    /\.test\.[cm]?tsx?$/.test(path) ||
    /(^|\/)proof\//.test(path) ||
    /^mocks\/(example|recipes|snippets)\//.test(path)
  )
}

/** The index of the layer a file is in (the most specific path that holds it), or -1 outside them all. */
export function layerOf(path: string): number {
  let best = -1
  let bestLength = -1
  layers.forEach((layer, index) => {
    const holds = layer.path.endsWith('/*')
      ? dirname(path) === layer.path.slice(0, -2)
      : path.startsWith(layer.path)
    if (holds && layer.path.length > bestLength) {
      best = index
      bestLength = layer.path.length
    }
  })
  return best
}

/** A family folder of suites/ (`suites/network/`) whose face is its index.ts, or undefined. */
function familyOf(path: string): string | undefined {
  const layer = layers[layerOf(path)]
  return layer && /^suites\/[^/*]+\/$/.test(layer.path) ? layer.path : undefined
}

/** Imports as edges between files of the repository, relative to its root. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>

/**
 * Every import that breaks the order, as `from -> to (why)`: one that climbs to a higher layer, one that
 * reaches into a family of suites/ past its face (index.ts), and the library's imports of test-only code.
 * Type-only imports count: they tie the files just the same. A plain-JavaScript file may name a family's
 * .mjs file itself: it runs before TypeScript can, so no face can serve it.
 */
export function climbingImports(graph: ImportGraph): string[] {
  const wrong: string[] = []
  for (const [from, targets] of graph) {
    if (isTestOnly(from)) continue
    for (const to of targets) {
      if (isTestOnly(to)) {
        // The scripts that are not shipped (bench, example) start proof servers and the example app.
        if (!from.startsWith('scripts/')) wrong.push(`${from} -> ${to} (test-only code)`)
        continue
      }
      const [source, target] = [layerOf(from), layerOf(to)]
      if (target > source)
        wrong.push(`${from} -> ${to} (climbs from ${layers[source]?.path} to ${layers[target]?.path})`)
      const family = familyOf(to)
      const plainJs = from.endsWith('.mjs') && to.endsWith('.mjs')
      if (family && familyOf(from) !== family && to !== `${family}index.ts` && !plainJs)
        wrong.push(`${from} -> ${to} (past the face of ${family}: import ${family}index.ts)`)
    }
  }
  return wrong
}

/** The import cycles among the files that are not test-only, each as its files (Tarjan's algorithm). */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file) as number)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (isTestOnly(next) || !graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number))
      } else if (onStack.has(next))
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number))
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop() as string
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort())
  }
  for (const file of graph.keys()) if (!isTestOnly(file) && !index.has(file)) visit(file)
  return cycles
}

/** The import graph of the repository's four folders, read from the sources' relative imports. */
export function readImportGraph(root: string): ImportGraph {
  const sources = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = posix.join(dir, entry.name)
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path)
      return /\.(ts|tsx|mjs|mts)$/.test(entry.name) ? [path] : []
    })
  const graph = new Map<string, string[]>()
  for (const path of ['contract', 'mocks', 'suites', 'scripts'].flatMap(sources)) {
    const text = readFileSync(join(root, path), 'utf8')
    const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
    graph.set(
      path,
      specifiers.map(([, specifier]) =>
        relative(root, resolve(root, dirname(path), specifier ?? ''))
          .split('\\')
          .join('/'),
      ),
    )
  }
  return graph
}

/** The table docs/architecture.md shows: the bottom layer first, each free to import the rows above it. */
export function layersMarkdown(): string {
  return [
    '| # | layer | holds |',
    '|---|---|---|',
    ...layers.map((layer, index) => `| ${index + 1} | \`${layer.path}\` | ${layer.holds} |`),
  ].join('\n')
}
