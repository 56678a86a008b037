import { describe, expect, it } from 'vitest'
import { isJsonMediaType, maxJsonDepth, parseJsonBody } from './json-body.ts'

describe('parseJsonBody', () => {
  it('parses a flat object and nesting up to the limit', () => {
    expect(parseJsonBody('{"name":"Rex","categoryId":1}')).toEqual({
      ok: true,
      value: { name: 'Rex', categoryId: 1 },
    })
    const deepest = `${'['.repeat(maxJsonDepth)}${']'.repeat(maxJsonDepth)}`
    expect(parseJsonBody(deepest).ok).toBe(true)
  })

  it('refuses nesting one level past the limit before parsing, even in a body JSON.parse would reject', () => {
    const tooDeep = parseJsonBody(`${'['.repeat(maxJsonDepth + 1)}`)
    expect(tooDeep).toMatchObject({ ok: false })
    expect(tooDeep.ok ? '' : tooDeep.message).toContain('nest deeper')
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    const name = `${'['.repeat(100)}\\"${'{'.repeat(100)}`
    expect(parseJsonBody(`{"name":"${name}"}`).ok).toBe(true)
  })

  it('says what is malformed', () => {
    const malformed = parseJsonBody('{"name":')
    expect(malformed.ok ? '' : malformed.message).toMatch(/^Malformed JSON body: /)
  })
})

describe('isJsonMediaType', () => {
  it.each([
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['application/merge-patch+json', true],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    [undefined, false],
  ])('%s → %s', (contentType, expected) => {
    expect(isJsonMediaType(contentType)).toBe(expected)
  })
})
