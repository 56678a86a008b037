import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { listRules } from '../../suites/judging/rules.ts'
import { parityMarkdown, schemathesisParity } from './schemathesis-parity.ts'

const checksPage = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8')

describe('the Schemathesis parity table', () => {
  it('is the table docs/checks.md shows, row for row', () => {
    const start = checksPage.indexOf('<!-- parity:start -->')
    const end = checksPage.indexOf('<!-- parity:end -->')
    expect(start, 'docs/checks.md has no <!-- parity:start --> marker').toBeGreaterThan(-1)
    expect(checksPage.slice(start + '<!-- parity:start -->'.length, end).trim()).toBe(parityMarkdown())
  })

  it('places every rule of the registry in some row, so a new rule cannot go unanswered', () => {
    const placed = new Set(schemathesisParity.flatMap((row) => row.rules))
    expect(listRules().filter((rule) => !placed.has(rule.id))).toEqual([])
  })

  it('marks a rule policy exactly where the registry does', () => {
    const table = parityMarkdown()
    for (const rule of listRules())
      expect(table.includes(`\`${rule.id}\` (policy)`), rule.id).toBe(rule.kind === 'policy')
  })
})
