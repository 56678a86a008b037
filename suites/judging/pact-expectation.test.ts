import { describe, expect, it } from 'vitest'
import type { PactInteraction } from '../../mocks/core/pact-document.ts'
import { expectationMismatches } from './pact-expectation.ts'

const json = { 'content-type': 'application/json' }
const typed = { combine: 'AND' as const, matchers: [{ match: 'type' as const }] }
const expected = (
  body: unknown,
  rules: Record<string, unknown> = { $: typed },
): PactInteraction['response'] => ({
  status: 200,
  headers: { 'content-type': ['application/json'] },
  body: { contentType: 'application/json', encoded: false, content: body },
  matchingRules: { body: rules as never },
})
const where = (response: PactInteraction['response'], body: string, status = 200, headers = json) =>
  expectationMismatches(response, { status, headers, body }).map((mismatch) => mismatch.where)

describe("a recorded interaction's expectation, judged as Pact's Verifier judges it", () => {
  it('holds an object by type: the same JSON types, more members allowed, none missing', () => {
    const pet = expected({ id: 1, name: 'Rex', status: 'sold' })
    expect(where(pet, '{"id":9223372036854775807,"name":"Mo","status":"pending","extra":true}')).toEqual([])
    expect(where(pet, '{"id":"1","name":"Mo"}')).toEqual(['$', '$.id'])
  })

  it('holds every item of a list like the first recorded one, and a recorded empty list takes any', () => {
    const list = expected([{ id: 1 }], { $: { combine: 'AND', matchers: [{ match: 'type', min: 0 }] } })
    expect(where(list, '[]')).toEqual([])
    expect(where(list, '[{"id":2},{"id":3}]')).toEqual([])
    expect(where(list, '[{"id":2},{"id":"3"}]')).toEqual(['$[1].id'])
    expect(where(expected([]), '[{"id":2}]')).toEqual([])
  })

  it('holds a member exactly where an equality rule is more specific than the type rule above it', () => {
    const created = expected(
      { id: 1, name: 'Rex' },
      { $: typed, '$.name': { combine: 'AND', matchers: [{ match: 'equality' }] } },
    )
    expect(where(created, '{"id":7,"name":"Rex"}')).toEqual([])
    expect(where(created, '{"id":7,"name":"Rex "}')).toEqual(['$.name'])
  })

  it('compares values without a rule, and the status and media type always', () => {
    const plain = expected({ code: 'x' }, {})
    expect(where(plain, '{"code":"y"}')).toEqual(['$.code'])
    expect(where(plain, '{"code":"x"}', 201)).toEqual(['status'])
    expect(where(plain, '{"code":"x"}', 200, { 'content-type': 'application/json; charset=utf-8' })).toEqual(
      [],
    )
    expect(where(plain, '{"code":"x"}', 200, { 'content-type': 'text/plain' })).toEqual([
      'header content-type',
    ])
    expect(where(plain, 'not json')).toEqual(['$'])
  })
})
