import { describe, expect, it } from 'vitest'
import { createMockApi } from '../create-mock-api.ts'
import { type Conditions, decideConditions, parseLatency, resolveConditions } from './conditions.ts'
import { RequestJournal } from './request-journal.ts'
import { seededRandom } from './seeded-random.ts'

const request = (prefer?: string) => ({
  method: 'GET',
  path: '/v1/pets',
  query: '',
  headers: prefer === undefined ? {} : { prefer },
})
const decide = (conditions: Conditions, random: () => number, prefer?: string, operationId?: string) =>
  decideConditions(request(prefer), operationId, conditions, random)
const delays = (conditions: Conditions, seed: number, count: number) => {
  const random = seededRandom(seed)
  return Array.from({ length: count }, () => {
    const decided = decide(conditions, random)
    return decided && 'applied' in decided ? decided.delayMs : 0
  })
}

describe('latency and fault decisions', () => {
  it('decides nothing, drawing nothing, when nothing is set and no Prefer is sent', () => {
    const random = () => {
      throw new Error('drew a number')
    }
    expect(decide(resolveConditions({}), random)).toBeUndefined()
  })

  it('draws a latency range from the seed: the same seed repeats, another differs, all within the range', () => {
    const conditions = resolveConditions({ latency: { min: 200, max: 800 } })
    const first = delays(conditions, 7, 50)
    expect(delays(conditions, 7, 50)).toEqual(first)
    expect(delays(conditions, 8, 50)).not.toEqual(first)
    expect(first.every((delay) => delay >= 200 && delay <= 800)).toBe(true)
    expect(new Set(first).size).toBeGreaterThan(10)
  })

  it('lets an operation’s own latency and fault rate replace the global ones', () => {
    const conditions = resolveConditions({
      latency: 100,
      operations: { createPet: { latency: 900, faultRate: 1 } },
    })
    const random = seededRandom(1)
    expect(decide(conditions, random, undefined, 'listPets')).toMatchObject({
      delayMs: 100,
      fault: undefined,
    })
    const create = decide(conditions, random, undefined, 'createPet')
    expect(create).toMatchObject({ delayMs: 900, cause: 'fault rate 1' })
    expect(['503', '500', 'reset', 'truncate']).toContain((create as { fault: string }).fault)
  })

  it('lets Prefer: delay and fault win over the settings, and lists them for Preference-Applied', () => {
    const conditions = resolveConditions({ latency: 100, faultRate: 1, faultKinds: ['500'] })
    expect(decide(conditions, seededRandom(1), 'delay=0, fault=truncate')).toEqual({
      delayMs: 0,
      fault: 'truncate',
      cause: 'Prefer: fault=truncate',
      applied: ['delay=0', 'fault=truncate'],
    })
  })

  it('draws faults at about the rate, only of the kinds asked for', () => {
    const conditions = resolveConditions({ faultRate: 0.1, faultKinds: ['503', 'timeout'] })
    const random = seededRandom(3)
    const faults = Array.from({ length: 2000 }, () => {
      const decided = decide(conditions, random)
      return decided && 'applied' in decided ? decided.fault : undefined
    }).filter((fault) => fault !== undefined)
    expect(faults.length).toBeGreaterThan(140)
    expect(faults.length).toBeLessThan(260)
    expect(new Set(faults)).toEqual(new Set(['503', 'timeout']))
  })

  it.each([
    [{ latency: -1 }, /latency must be whole milliseconds/],
    [{ latency: { min: 800, max: 200 } }, /min <= max/],
    [{ latency: 60_001 }, /0 to 60000/],
    [{ faultRate: 1.5 }, /faultRate must be a number from 0 to 1/],
    [{ faultKinds: ['boom'] }, /Unknown fault kind "boom"/],
  ])('refuses %j, saying what it accepts', (options, message) => {
    expect(() => resolveConditions(options as never)).toThrow(message)
  })

  it('refuses an unknown scenario, naming the known ones', () => {
    expect(() => createMockApi({ scenario: 'chaos' as never })).toThrow(
      'Unknown scenario "chaos": use one of default, empty, many, full, slow, flaky.',
    )
  })

  it('refuses a per-operation setting for an operation the contract does not have', () => {
    expect(() => createMockApi({ operations: { deletePet: { latency: 10 } } })).toThrow(
      /Unknown operation "deletePet".*listPets, createPet, getPet/,
    )
  })

  it.each([
    ['300', 300],
    ['200-800', { min: 200, max: 800 }],
    [' 5 - 9 ', { min: 5, max: 9 }],
    ['fast', undefined],
    ['-5', undefined],
  ])('reads --latency %j', (text, expected) => {
    expect(parseLatency(text)).toEqual(expected)
  })
})

describe('the request journal', () => {
  const record = (journal: RequestJournal, index: number) =>
    journal.record('GET', `/v1/pets/${index}`, '', 200, 0, null, true)

  it('keeps only the last N requests, oldest first', () => {
    const journal = new RequestJournal(3)
    for (let index = 1; index <= 5; index++) record(journal, index)
    expect(journal.list().map((kept) => kept.path)).toEqual(['/v1/pets/3', '/v1/pets/4', '/v1/pets/5'])
    journal.clear()
    expect(journal.list()).toEqual([])
  })

  it('keeps nothing at size 0', () => {
    const journal = new RequestJournal(0)
    record(journal, 1)
    expect(journal.list()).toEqual([])
  })

  it('starts the seeded draws again on every reset, so a run repeats', () => {
    const api = createMockApi({ latency: { min: 0, max: 1000 }, apiKeys: ['k'] })
    const run = () =>
      Array.from(
        { length: 5 },
        () => api.handle({ ...request(), headers: { authorization: 'Bearer k' } }).delayMs,
      )
    const first = run()
    api.reset()
    expect(run()).toEqual(first)
  })
})
