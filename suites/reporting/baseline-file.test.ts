import { describe, expect, it } from 'vitest'
import { applyBaseline, parseBaseline, writeBaseline } from './baseline-file.ts'

const read = (accepted: unknown) => parseBaseline(JSON.stringify({ accepted }), 'baseline.json')
const baselineOf = (accepted: unknown) => {
  const parsed = read(accepted)
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.baseline
}

describe('parseBaseline', () => {
  it('reads entries with an id, a reason and an optional expiry day', () => {
    expect(
      baselineOf([
        { id: 'limit listPets query limit', reason: 'PET-12' },
        { id: 'header getPet Sunset', reason: 'gateway strips it', expires: '2027-01-31' },
      ]).entries,
    ).toEqual([
      { id: 'limit listPets query limit', reason: 'PET-12' },
      { id: 'header getPet Sunset', reason: 'gateway strips it', expires: '2027-01-31' },
    ])
  })

  it.each([
    [[{ id: 'a', reason: '' }], 'entry 1 ("a") has no reason: say why it is accepted'],
    [[{ id: 'a', reason: '  ' }], 'entry 1 ("a") has no reason'],
    [[{ reason: 'x' }], 'entry 1 has no "id"'],
    [
      [{ id: 'a', reason: 'x', expire: '2027-01-01' }],
      'entry 1 has unknown keys expire; allowed: id, reason, expires',
    ],
    [
      [{ id: 'a', reason: 'x', expires: '2027-02-30' }],
      'has "expires" "2027-02-30"; write a date as YYYY-MM-DD',
    ],
    [[{ id: 'a', reason: 'x', expires: '31/01/2027' }], 'write a date as YYYY-MM-DD'],
    [
      [
        { id: 'a', reason: 'x' },
        { id: 'a', reason: 'y' },
      ],
      'entry 2 lists "a" a second time',
    ],
    ['not a list', 'must be an object with one key, "accepted"'],
  ])('refuses %j, saying what to fix', (accepted, problem) => {
    const parsed = read(accepted)
    expect(parsed.ok).toBe(false)
    expect(parsed.ok ? '' : parsed.problem).toContain(`baseline.json: `)
    expect(parsed.ok ? '' : parsed.problem).toContain(problem)
  })

  it('refuses text that is not JSON, and an object with other keys', () => {
    expect(parseBaseline('{', 'b.json')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^b\.json: not JSON/),
    })
    expect(parseBaseline('{"accepted": [], "extra": 1}', 'b.json').ok).toBe(false)
  })
})

describe('applyBaseline', () => {
  const baseline = baselineOf([
    { id: 'open', reason: 'PET-1' },
    { id: 'until-today', reason: 'PET-2', expires: '2026-11-25' },
    { id: 'ran-out', reason: 'PET-3', expires: '2026-11-24' },
    { id: 'fixed', reason: 'PET-4' },
  ])

  it('accepts listed findings through their expiry day, fails them after it, and lists entries nothing matched', () => {
    const outcome = applyBaseline(
      ['open', 'until-today', 'ran-out', 'new'],
      baseline,
      new Date('2026-11-25T23:59:00Z'),
    )
    expect(outcome.known.map((entry) => entry.id)).toEqual(['open', 'until-today'])
    expect(outcome.expired.map((entry) => entry.id)).toEqual(['ran-out'])
    expect(outcome.stale.map((entry) => entry.id)).toEqual(['fixed'])
    expect(outcome.path).toBe('baseline.json')
  })

  it('lets an entry lapse the day after it expires', () => {
    const outcome = applyBaseline(['until-today'], baseline, new Date('2026-11-26T00:00:01Z'))
    expect(outcome.expired.map((entry) => entry.id)).toEqual(['until-today'])
  })
})

describe('writeBaseline', () => {
  it('lists every finding once with an empty reason, which the reader refuses until a person writes one', () => {
    const text = writeBaseline(['a', 'b', 'a'])
    expect(JSON.parse(text)).toEqual({
      accepted: [
        { id: 'a', reason: '' },
        { id: 'b', reason: '' },
      ],
    })
    expect(parseBaseline(text, 'b.json').ok).toBe(false)
  })

  it('keeps the reasons and expiry days of entries that still match, and drops stale ones', () => {
    const previous = baselineOf([
      { id: 'a', reason: 'PET-1', expires: '2027-01-01' },
      { id: 'gone', reason: 'PET-9' },
    ])
    expect(JSON.parse(writeBaseline(['a', 'new'], previous))).toEqual({
      accepted: [
        { id: 'a', reason: 'PET-1', expires: '2027-01-01' },
        { id: 'new', reason: '' },
      ],
    })
  })
})
