import { PetStore } from './pet-store.ts'
import { defaultPetCount, defaultSeed, seedPets } from './seed-pets.ts'

/** The largest seeded store `reset` accepts (the store is sized and benchmarked for a million). */
export const maxSeededPets = 1_000_000

export interface SeedOptions {
  seed?: number
  pets?: number
}

/** The mock's state: one store, and how it was seeded so it can be seeded again. */
export interface MockState {
  readonly store: PetStore
  readonly seed: number
  readonly seededPets: number
  /** Empties the store and seeds it again: with the given seed and count, else the ones in use. */
  reset(options?: SeedOptions): void
}

/**
 * Creates a store seeded with `pets` faker pets from `seed` (defaults: a fixed seed, 50 pets).
 * @example const state = createMockState({ seed: 7, pets: 3 }); state.store.size // 3
 */
export function createMockState(options: SeedOptions = {}): MockState {
  const store = new PetStore()
  const state = {
    store,
    seed: options.seed ?? defaultSeed,
    seededPets: options.pets ?? defaultPetCount,
    reset(next: SeedOptions = {}) {
      state.seed = next.seed ?? state.seed
      state.seededPets = next.pets ?? state.seededPets
      store.clear()
      for (const pet of seedPets(state.seed, state.seededPets)) store.add(pet)
    },
  }
  state.reset()
  return state
}
