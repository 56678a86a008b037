import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  climbingImports,
  type ImportGraph,
  importCycles,
  isTestOnly,
  layerOf,
  layersMarkdown,
  readImportGraph,
} from './layer-order.ts'

// Arrows run down (scripts/layer-order.ts): a file imports its own layer and those below it, a family of
// suites/ is entered through its face, nothing shipped imports tests or proof, and no files import each
// other in a circle, type-only imports included.
const root = fileURLToPath(new URL('..', import.meta.url))
const graph = readImportGraph(root)

describe('the layer order', () => {
  it('places every source file in a layer', () => {
    const shipped = [...graph.keys()].filter((path) => !isTestOnly(path))
    expect(shipped.length).toBeGreaterThan(150)
    expect(shipped.filter((path) => layerOf(path) < 0)).toEqual([])
  })

  it('is the table docs/architecture.md shows (npm run docs:tables rewrites it)', () => {
    const page = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8')
    const table = page.split('<!-- layers:start -->')[1]?.split('<!-- layers:end -->')[0]?.trim()
    expect(table).toBe(layersMarkdown())
  })

  it('keeps the top level of suites/ to its entry points', () => {
    const top = [...graph.keys()].filter((path) => /^suites\/[^/]+$/.test(path) && !isTestOnly(path))
    expect(top.length).toBeLessThanOrEqual(8)
  })
})

describe('the imports', () => {
  it('never climb the layer order nor reach past a family’s face', () => {
    expect(climbingImports(graph)).toEqual([])
  })

  it('form no cycle', () => {
    expect(importCycles(graph)).toEqual([])
  })
})

describe('the layering check itself', () => {
  const planted = (edges: [string, string][]): ImportGraph => {
    const copy = new Map([...graph].map(([file, targets]) => [file, [...targets]]))
    for (const [from, to] of edges) copy.get(from)?.push(to)
    return copy
  }

  it('fails on a planted import that climbs, type-only or not', () => {
    // The network client taking a type from the report would tie the bottom to the top again.
    expect(
      climbingImports(planted([['suites/network/bounded-request.ts', 'suites/reporting/index.ts']])),
    ).toEqual([
      'suites/network/bounded-request.ts -> suites/reporting/index.ts (climbs from suites/network/ to suites/reporting/)',
    ])
    expect(climbingImports(planted([['contract/index.ts', 'mocks/core/route.ts']]))).toHaveLength(1)
    expect(climbingImports(planted([['mocks/core/route.ts', 'suites/index.ts']]))).toHaveLength(1)
  })

  it('fails on a planted import past a face and on one into test-only code', () => {
    expect(
      climbingImports(planted([['suites/run/preflight.ts', 'suites/network/bounded-request.ts']])),
    ).toEqual([
      'suites/run/preflight.ts -> suites/network/bounded-request.ts (past the face of suites/network/: import suites/network/index.ts)',
    ])
    expect(
      climbingImports(planted([['suites/judging/exchange.ts', 'suites/proof/raw-http.ts']])),
    ).toHaveLength(1)
  })

  it('finds a planted cycle', () => {
    const cycles = importCycles(
      planted([['suites/network/received.ts', 'suites/network/bounded-request.ts']]),
    )
    expect(cycles).toHaveLength(1)
    expect(cycles[0]).toContain('suites/network/received.ts')
  })
})
