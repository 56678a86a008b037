import { describe, expect, it } from 'vitest'
import { createMockState } from './mock-state.ts'

describe('the configured start, seeded once', () => {
  it('is taken again, not seeded again, by a reset back to it', () => {
    const state = createMockState({ seed: 1, pets: 500 })
    const first = state.store.list(100)
    const sealed = state.configuredPets
    expect(sealed?.names.length).toBe(500)
    expect(state.reset({ seed: 2 })).toEqual({ ok: true })
    expect(state.store.list(100)).not.toEqual(first)
    expect(state.reset()).toEqual({ ok: true })
    expect(state.configuredPets).toBe(sealed)
    expect(state.store.list(100)).toEqual(first)
  })

  it('is shared with a state of the same start, whose own pets stay its own', () => {
    const seeding = createMockState({ seed: 1, pets: 500 })
    const sealed = seeding.configuredPets
    const sharing = createMockState({ seed: 1, pets: 500, ...(sealed ? { seededPets: sealed } : {}) })
    expect(sharing.configuredPets).toBe(sealed)
    expect(sharing.store.list(100)).toEqual(seeding.store.list(100))
    sharing.store.add({ name: 'Own', categoryId: 1 })
    expect(sharing.store.size).toBe(501)
    expect(seeding.store.size).toBe(500)
  })

  it('refuses shared pets beyond its budget at once, saying how large they are', () => {
    const seeding = createMockState({ seed: 1, pets: 500 })
    const sealed = seeding.configuredPets
    expect(sealed).toBeDefined()
    if (!sealed) return
    expect(() =>
      createMockState({
        seed: 1,
        pets: 500,
        seededPets: sealed,
        budget: { maxStoreBytes: sealed.bytes - 1 },
      }),
    ).toThrow(
      `500 seeded pets do not fit in the store's budget of ${sealed.bytes - 1} bytes (they take ${sealed.bytes} bytes)`,
    )
  })
})
