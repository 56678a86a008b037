import { describe, expect, it } from 'vitest'
import { excludedRules, listChecksText } from './rule-selection.ts'
import { listRules } from './rules.ts'

const ids = listRules().map((rule) => rule.id)
const select = (selection: Parameters<typeof excludedRules>[0]) => {
  const result = excludedRules(selection)
  if (!result.ok) throw new Error(result.problem)
  return result.excluded
}

describe('excludedRules', () => {
  it('leaves nothing out when nothing is selected', () => {
    expect(select({})).toEqual([])
  })

  it('leaves out a rule, a group and a kind by name', () => {
    expect(select({ excludeChecks: ['limit'] })).toEqual(['limit'])
    const headers = listRules()
      .filter((rule) => rule.group === 'headers')
      .map((rule) => rule.id)
    expect(select({ excludeChecks: ['headers'] })).toEqual(headers)
    const policy = listRules()
      .filter((rule) => rule.kind === 'policy')
      .map((rule) => rule.id)
    expect(policy.length).toBeGreaterThan(0)
    expect(select({ excludeChecks: ['policy'] })).toEqual(policy)
  })

  it('keeps only what --checks names, less what --exclude-checks names', () => {
    const excluded = select({ checks: ['state'], excludeChecks: ['duplicate-id'] })
    const state = listRules()
      .filter((rule) => rule.group === 'state')
      .map((rule) => rule.id)
    expect(ids.filter((id) => !excluded.includes(id))).toEqual(state.filter((id) => id !== 'duplicate-id'))
  })

  it('refuses an unknown name, listing what it takes', () => {
    const result = excludedRules({ excludeChecks: ['limits', 'auth'] })
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.problem).toMatch(
      /^unknown check "limits"; a check is a rule, a group or a kind: .*\blimit\b/,
    )
  })
})

describe('listChecksText', () => {
  it('lists every rule of the registry once, with its kind', () => {
    const text = listChecksText()
    for (const rule of listRules())
      expect(text).toMatch(new RegExp(`^  ${rule.id} +${rule.group} +${rule.kind} `, 'm'))
  })
})
