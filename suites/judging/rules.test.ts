import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { contract } from '../../contract/index.ts'
import { everyResponseChecks, responseChecks } from './response-checks/index.ts'
import { listRules, rulesMarkdown } from './rules.ts'

const checksPage = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8')

/** The value a JSON pointer (RFC 6901) names in the contract, or undefined. */
function at(pointer: string): unknown {
  let node: unknown = contract.document
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined
  }
  return node
}

describe('the rule registry', () => {
  it('is the table docs/checks.md shows, rule for rule', () => {
    const start = checksPage.indexOf('<!-- rules:start -->')
    const end = checksPage.indexOf('<!-- rules:end -->')
    expect(start, 'docs/checks.md has no <!-- rules:start --> marker').toBeGreaterThan(-1)
    expect(checksPage.slice(start + '<!-- rules:start -->'.length, end).trim()).toBe(rulesMarkdown())
  })

  it('points every rule that cites the contract at a place that exists in openapi.yaml', () => {
    for (const rule of listRules())
      if (rule.pointer !== undefined) expect(at(rule.pointer), `${rule.id}: ${rule.pointer}`).toBeDefined()
  })

  it('sorts each rule into contract or policy, the policy ones being where the contract is silent', () => {
    const policy = listRules()
      .filter((rule) => rule.kind === 'policy')
      .map((rule) => rule.id)
    expect(policy).toEqual([
      'invalid-not-refused',
      'duplicate-member',
      'leaked-internals',
      'broken-header-promise',
      'wrong-challenge',
      'unsupported-method',
      'client-quirk-refused',
      'response-too-large',
      'served-after-sunset',
    ])
  })

  it('knows every rule a named response check can report', () => {
    const known = new Set(listRules().map((rule) => rule.id))
    for (const check of [...responseChecks, ...everyResponseChecks])
      for (const rule of check.rules) expect(known.has(rule), rule).toBe(true)
    expect(responseChecks.map((check) => check.name)).toEqual([
      'status',
      'content type',
      'body schema',
      'Error shape',
      'headers (Deprecation/Sunset)',
      'unique member names',
    ])
    expect(everyResponseChecks.map((check) => check.name)).toEqual([
      'leaked internals',
      'WWW-Authenticate challenge',
    ])
  })
})
