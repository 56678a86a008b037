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

  it('reads the matchers other Pact tools write, and holds one it does not know to its example’s type', () => {
    const rule = (matcher: Record<string, unknown>) => ({ combine: 'AND', matchers: [matcher] })
    const foreign = expected(
      { id: 1, note: 'made by x', at: '2026-01-01' },
      {
        '$.id': rule({ match: 'integer' }),
        '$.note': rule({ match: 'include', value: 'made' }),
        '$.at': rule({ match: 'date', format: 'yyyy-MM-dd' }),
      },
    )
    expect(where(foreign, '{"id":9223372036854775807,"note":"made by y","at":"2027-02-02"}')).toEqual([])
    expect(where(foreign, '{"id":1.5,"note":"by y","at":7}')).toEqual(['$.id', '$.note', '$.at'])
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
