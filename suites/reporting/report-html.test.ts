import { describe, expect, it } from 'vitest'
import { coverageTable } from '../checks/coverage-check.ts'
import type { CheckResult } from '../engine/run-check.ts'
import { buildReport } from './conformance-report.ts'
import { coverageMatrix } from './coverage-matrix.ts'
import { toHtml } from './report-html.ts'

const result = (
  group: string,
  name: string,
  outcome: CheckResult['outcome'],
  exercised: string[],
): CheckResult => ({ group, name, outcome, exercised, violations: [], warnings: [], advice: [], notes: [] })

const coverage = coverageTable({
  seen: new Set(['listPets 200', 'createPet 201']),
  excused: new Set(),
  target: { readOnly: false } as Parameters<typeof coverageTable>[0]['target'],
})

describe('the coverage matrix counts checks by operation, status and group', () => {
  const checks = [
    result('listPets', 'lists', 'passed', ['listPets 200']),
    result('listPets', 'limits', 'failed', ['listPets 200', 'listPets 500']),
    result('security', 'no key', 'blocked', []),
    result('security', 'orders', 'passed', ['GET /store/orders 401']),
  ]
  const { groups, rows } = coverageMatrix(coverage, checks)
  const row = (operation: string, status: string) =>
    rows.find((one) => one.operation === operation && one.status === status)

  it('has a column per check group and a row per declared pair, in the contract’s order', () => {
    expect(groups).toEqual(['listPets', 'security'])
    expect(rows.slice(0, 2).map((one) => `${one.operation} ${one.status}`)).toEqual([
      'listPets 200',
      'listPets 401',
    ])
  })

  it('counts a check in every pair its requests got, by how it ended', () => {
    expect(row('listPets', '200')?.cells.listPets).toEqual({ checks: 2, passed: 1, failed: 1, blocked: 0 })
    expect(row('listPets', '500')).toMatchObject({ state: 'undeclared', cells: { listPets: { failed: 1 } } })
  })

  it('shows declared pairs no check exercised, and checks that got no answer, as such', () => {
    expect(row('getPet', '404')).toMatchObject({ state: 'not seen', cells: {} })
    expect(row('GET /store/orders', '401')?.state).toBe('open')
    expect(rows.at(-1)).toMatchObject({ state: 'no answer', cells: { security: { blocked: 1 } } })
  })

  it('puts an undeclared status after its operation’s declared ones', () => {
    const listRows = rows.filter((one) => one.operation === 'listPets').map((one) => one.status)
    expect(listRows.at(-1)).toBe('500')
  })
})

describe('the HTML report is a self-contained page built from the report', () => {
  const report = buildReport([result('listPets', 'lists', 'passed', ['listPets 200'])], {
    target: { baseUrl: 'https://user:hunter2@staging.test/v1', readOnly: true, viaPrism: false, seed: 7 },
    startedAt: new Date('2026-01-01T00:00:00Z'),
    finishedAt: new Date('2026-01-01T00:00:03Z'),
    coverage,
    created: { count: 0, namePrefix: 'conformance-x' },
  })
  const page = toHtml(report)

  it('loads nothing: no script, no external stylesheet, image or font, and a policy that forbids them', () => {
    expect(page).not.toMatch(/<script|<link|<img|<iframe|url\(|@import|src=|https?:\/\/(?!staging\.test)/i)
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
  })

  it('never shows credentials a base URL carries', () => {
    expect(page).not.toContain('hunter2')
    expect(page).toContain('https://staging.test/v1')
  })

  it('states the verdict, the seed and the mode, and how to replay the run', () => {
    expect(page).toContain('<h1>Animal Store conformance: CONFORMS</h1>')
    expect(page).toMatch(/--seed 7 --read-only/)
  })
})
