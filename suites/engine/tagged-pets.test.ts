import { describe, expect, it } from 'vitest'
import type { Pet } from '../../contract/types.ts'
import { censusQueries, countTagged, isTagged, reusablePet } from './tagged-pets.ts'

const pet = (id: number | bigint, name: string, status?: Pet['status']): Pet =>
  ({ id, name, categoryId: 1, ...(status ? { status } : {}) }) as Pet
const page = (...pets: Pet[]) => ({ pets, length: pets.length })

describe('the kit’s tag on a pet’s name', () => {
  it('is the prefix, a dash and six hex digits of a run, then a space or the end', () => {
    expect(isTagged('conformance-1a2b3c available', 'conformance')).toBe(true)
    expect(isTagged('conformance-1a2b3c', 'conformance')).toBe(true)
    expect(isTagged('conformance-1a2b3c model Rex', 'conformance')).toBe(true)
  })

  it('is not a name that only looks like it', () => {
    for (const name of [
      'conformance',
      'conformance-1a2b3',
      'conformance-1A2B3C x',
      'conformance-1a2b3cd x',
      'xconformance-1a2b3c x',
      ' conformance-1a2b3c x',
      'Rex',
    ])
      expect(isTagged(name, 'conformance')).toBe(false)
    expect(isTagged(42, 'conformance')).toBe(false)
  })

  it('follows --name-prefix, characters a regular expression would read included', () => {
    expect(isTagged('ci.run+1-abcdef x', 'ci.run+1')).toBe(true)
    expect(isTagged('ciXrun+1-abcdef x', 'ci.run+1')).toBe(false)
  })
})

describe('the census of tagged pets', () => {
  it('lists the first page unfiltered and under each status of the contract, 100 each', () => {
    expect(censusQueries()).toEqual([
      { limit: 100 },
      { status: 'available', limit: 100 },
      { status: 'pending', limit: 100 },
      { status: 'sold', limit: 100 },
    ])
  })

  it('counts each tagged pet once across the pages, and no untagged one', () => {
    const a = pet(3, 'conformance-aaaaaa available', 'available')
    const b = pet(9, 'conformance-bbbbbb sold', 'sold')
    const census = countTagged([page(pet(1, 'Rex'), a, b), page(a), page(b), page()], 'conformance')
    expect(census.tagged.map(({ id }) => id)).toEqual([3, 9])
    expect(census.listed).toBe(3)
    expect(census.bounded).toBe(false)
  })

  it('is a lower bound once a page was full, records set aside included', () => {
    const full = { pets: [pet(1, 'conformance-aaaaaa x')], length: 100 }
    expect(countTagged([full, page()], 'conformance').bounded).toBe(true)
  })
})

describe('the pet reading checks reuse', () => {
  const run = 'conformance-cccccc'
  const census = (...pets: Pet[]) => ({ tagged: pets, bounded: false, listed: pets.length })

  it('is none on a first run or another server: nothing tagged was listed', () => {
    expect(reusablePet(census(), run)).toBeUndefined()
  })

  it('is never one of this run’s own pets', () => {
    expect(reusablePet(census(pet(2, `${run} available`), pet(4, run)), run)).toBeUndefined()
    expect(reusablePet(census(pet(2, `${run} available`), pet(7, 'conformance-dddddd x')), run)?.id).toBe(7)
  })

  it('is the smallest id, whatever order the server listed them in', () => {
    const pets = [
      pet(30, 'conformance-aaaaaa x'),
      pet(5, 'conformance-bbbbbb y'),
      pet(12, 'conformance-dddddd z'),
    ]
    for (const order of [pets, [...pets].reverse(), [pets[1], pets[2], pets[0]] as Pet[]])
      expect(reusablePet(census(...order), run)?.id).toBe(5)
  })

  it('compares ids beyond 2^53 exactly', () => {
    const big = 2n ** 62n
    const chosen = reusablePet(
      census(pet(big + 1n, 'conformance-aaaaaa x'), pet(big, 'conformance-bbbbbb y')),
      run,
    )
    expect(chosen?.id).toBe(big)
  })
})
