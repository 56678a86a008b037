import { describe, expect, it } from 'vitest'
import { contract } from '../../contract/index.ts'
import { PetStore } from './pet-store.ts'
import { seedPets } from './seed-pets.ts'

describe('PetStore', () => {
  it('assigns increasing ids from 1 and serves each pet back by id', () => {
    const store = new PetStore()
    const first = store.add({ name: 'A', categoryId: 1, status: 'sold' })
    const second = store.add({ name: 'B', categoryId: 2 })
    expect([first.id, second.id]).toEqual([1, 2])
    expect(store.get(2)).toEqual({ id: 2, name: 'B', categoryId: 2 })
    expect(store.get(3)).toBeUndefined()
    expect(store.get(0)).toBeUndefined()
    expect(store.get(1.5)).toBeUndefined()
  })

  it('lists in ascending id order, at most limit, filtered by status', () => {
    const store = new PetStore()
    for (const [index, status] of (['sold', 'available', 'sold', 'pending', 'sold'] as const).entries()) {
      store.add({ name: `Pet ${index}`, categoryId: 1, status })
    }
    expect(store.list(3).map((pet) => pet.id)).toEqual([1, 2, 3])
    expect(store.list(2, 'sold').map((pet) => pet.id)).toEqual([1, 3])
    expect(store.list(100, 'sold').map((pet) => pet.id)).toEqual([1, 3, 5])
    expect(store.list(100, 'pending').map((pet) => pet.name)).toEqual(['Pet 3'])
  })

  it('starts again from id 1 after clear, and changes its version on every write', () => {
    const store = new PetStore()
    const versions = [store.version]
    store.add({ name: 'A', categoryId: 1 })
    versions.push(store.version)
    store.clear()
    versions.push(store.version)
    expect(new Set(versions).size).toBe(3)
    expect(store.add({ name: 'B', categoryId: 1 }).id).toBe(1)
  })

  it('refuses a pet that would pass its byte budget, keeping every pet it has', () => {
    const store = new PetStore({ maxStoreBytes: 10_000 })
    const name = 'x'.repeat(2_000) // 4,032 bytes counted
    expect(store.tryAdd({ name, categoryId: 1 })?.id).toBe(1)
    expect(store.tryAdd({ name, categoryId: 1 })?.id).toBe(2)
    expect(store.tryAdd({ name, categoryId: 1 })).toBeUndefined()
    expect(() => store.add({ name, categoryId: 1 })).toThrow(/store is full/)
    expect(store.size).toBe(2)
    expect(store.tryAdd({ name: 'small', categoryId: 1 })?.id).toBe(3)
  })

  it('gives the same JSON as JSON.stringify(list()), and stops a page once it passes maxPageBytes', () => {
    const store = new PetStore()
    for (const pet of seedPets(3, 40)) store.add(pet)
    store.add({ name: 'Quote " and \\ and \u0001', categoryId: 2 })
    expect(store.listJson(100)).toBe(JSON.stringify(store.list(100)))
    expect(store.listJson(7, 'sold')).toBe(JSON.stringify(store.list(7, 'sold')))
    const big = new PetStore({ maxPageBytes: 1000 })
    big.add({ name: 'y'.repeat(5000), categoryId: 1 })
    big.add({ name: 'z', categoryId: 1 })
    expect(JSON.parse(big.listJson(100)).map((pet: { id: number }) => pet.id)).toEqual([1])
  })

  it('keeps a full page cached across an added pet, and rebuilds a page that had room for it', () => {
    const store = new PetStore()
    for (const pet of seedPets(3, 5)) store.add(pet)
    const full = store.listJson(3)
    const partial = store.listJson(10)
    store.add({ name: 'Later', categoryId: 1 })
    expect(store.listJson(3)).toBe(full)
    expect(JSON.parse(store.listJson(10))).toHaveLength(6)
    expect(store.listJson(10)).not.toBe(partial)
    expect(store.listJson(10)).toBe(JSON.stringify(store.list(10)))
    store.clear()
    expect(store.listJson(3)).toBe('[]')
  })

  it('holds a million pets and still lists a filtered page from its index', () => {
    const store = new PetStore()
    for (const pet of seedPets(11, 1_000_000)) store.add(pet)
    store.add({ name: 'The last one', categoryId: 3, status: 'pending' })
    expect(store.size).toBe(1_000_001)
    const sold = store.list(20, 'sold')
    expect(sold).toHaveLength(20)
    expect(sold.every((pet) => pet.status === 'sold')).toBe(true)
    expect(store.get(1_000_001)?.name).toBe('The last one')
  })
})

describe('seedPets', () => {
  it('gives the same pets for the same seed, and other pets for another seed', () => {
    expect([...seedPets(5, 30)]).toEqual([...seedPets(5, 30)])
    expect([...seedPets(5, 30)]).not.toEqual([...seedPets(6, 30)])
  })

  it('is not disturbed by another seeding running interleaved', () => {
    const alone = [...seedPets(5, 10)]
    const a = seedPets(5, 10)
    const b = seedPets(9, 10)
    const interleaved = []
    for (let index = 0; index < 10; index++) {
      interleaved.push(a.next().value)
      b.next()
    }
    expect(interleaved).toEqual(alone)
  })

  it('generates pets that are valid NewPets with real-looking names and every status', () => {
    const pets = [...seedPets(1, 200)]
    expect(pets.every((pet) => contract.validateSchema('NewPet', pet).ok)).toBe(true)
    expect(pets.every((pet) => /^[A-Z][a-z]+/.test(pet.name))).toBe(true)
    expect(new Set(pets.map((pet) => pet.status))).toEqual(new Set(['available', 'pending', 'sold']))
  })

  it('shares sealed pets with the stores started from them, each seeing only its own additions by id, page and status', () => {
    const seeding = new PetStore()
    for (const [index, status] of (['sold', 'available', 'sold'] as const).entries())
      seeding.add({ name: `Seeded ${index}`, categoryId: 1, status })
    const sealed = seeding.seal()
    const first = seeding.emptyCopy()
    first.holdSeeded(sealed)
    const second = seeding.emptyCopy()
    second.holdSeeded(sealed)
    first.add({ name: 'First own', categoryId: 2, status: 'sold' })
    second.add({ name: 'Second own', categoryId: 3, status: 'pending' })
    seeding.add({ name: 'Sealer own', categoryId: 4, status: 'sold' })
    expect(first.get(4)).toEqual({ id: 4, name: 'First own', categoryId: 2, status: 'sold' })
    expect(second.get(4)).toEqual({ id: 4, name: 'Second own', categoryId: 3, status: 'pending' })
    expect(seeding.get(4)?.name).toBe('Sealer own')
    expect(first.list(100, 'sold').map((pet) => pet.name)).toEqual(['Seeded 0', 'Seeded 2', 'First own'])
    expect(first.list(2, 'sold').map((pet) => pet.id)).toEqual([1, 3])
    expect(second.list(100, 'sold').map((pet) => pet.id)).toEqual([1, 3])
    expect(second.list(100, 'pending').map((pet) => pet.id)).toEqual([4])
    expect(JSON.parse(first.listJson(100))).toEqual(first.list(100))
    expect([first.size, second.size, sealed.names.length]).toEqual([4, 4, 3])
    // The shared pets count against each store's budget, as if its own.
    const alone = new PetStore()
    alone.add({ name: 'First own', categoryId: 2, status: 'sold' })
    expect(first.usedBytes).toBe(sealed.bytes + alone.usedBytes)
  })

  it('refuses sealed pets larger than its budget', () => {
    const seeding = new PetStore()
    seeding.add({ name: 'A name that takes room', categoryId: 1 })
    const sealed = seeding.seal()
    expect(new PetStore({ maxStoreBytes: sealed.bytes }).fitsSeeded(sealed)).toBe(true)
    expect(new PetStore({ maxStoreBytes: sealed.bytes - 1 }).fitsSeeded(sealed)).toBe(false)
    expect(new PetStore({}, () => sealed.bytes - 1).fitsSeeded(sealed)).toBe(false)
  })
})
