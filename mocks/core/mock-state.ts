import type { MemoryBudget } from './memory-budget.ts'
import { PetStore } from './pet-store.ts'
import { defaultPetCount, defaultSeed, seedPets } from './seed-pets.ts'

/** The largest seeded store `reset` accepts (the store is sized and benchmarked for a million). */
export const maxSeededPets = 1_000_000

export interface SeedOptions {
  seed?: number
  pets?: number
}

export interface MockStateOptions extends SeedOptions {
  /** Byte budgets of the store and its page cache (see memory-budget.ts); defaults fit a laptop. */
  budget?: Partial<MemoryBudget>
}

/** How a reset ended: the pets are in, or the seed did not fit and the old pets were kept. */
export type ResetOutcome = { ok: true } | { ok: false; reason: string }

/**
 * A reset in progress: the new pets are built aside in steps, and swapped in only by `commit`, so the
 * store keeps serving its old pets meanwhile and a reset that cannot finish loses nothing.
 */
export interface ResetJob {
  /** Seeds until done or until `performance.now()` passes `deadline`; true once no work is left. */
  step(deadline: number): boolean
  /** Swaps the seeded pets in (when they all fit) and says how it went. */
  commit(): ResetOutcome
}

/** The mock's state: one store, and how it was seeded so it can be seeded again. */
export interface MockState {
  readonly store: PetStore
  readonly seed: number
  readonly seededPets: number
  /** Empties the store and seeds it again, all at once: with the given seed and count, else the ones in use. */
  reset(options?: SeedOptions): ResetOutcome
  /** The same reset, to be run in steps (mocks/http/reset-in-steps.ts runs it between other requests). */
  beginReset(options?: SeedOptions): ResetJob
}

// How many pets are seeded between two looks at the clock: ~1 ms of work.
const petsPerClockCheck = 1024

/**
 * Creates a store seeded with `pets` faker pets from `seed` (defaults: a fixed seed, 50 pets).
 * @example const state = createMockState({ seed: 7, pets: 3 }); state.store.size // 3
 */
export function createMockState(options: MockStateOptions = {}): MockState {
  const store = new PetStore(options.budget)
  const state: MockState & { seed: number; seededPets: number } = {
    store,
    seed: options.seed ?? defaultSeed,
    seededPets: options.pets ?? defaultPetCount,
    reset(next = {}) {
      const job = state.beginReset(next)
      job.step(Number.POSITIVE_INFINITY)
      return job.commit()
    },
    beginReset(next = {}) {
      const seed = next.seed ?? state.seed
      const count = next.pets ?? state.seededPets
      const fresh = new PetStore(store.budget)
      const pets = seedPets(seed, count)
      let full = false
      let done = count === 0
      return {
        step(deadline) {
          while (!done) {
            for (let index = 0; index < petsPerClockCheck; index++) {
              const next = pets.next()
              if (next.done) {
                done = true
                break
              }
              if (!fresh.tryAdd(next.value)) {
                full = true
                done = true
                break
              }
            }
            if (performance.now() >= deadline) break
          }
          return done
        },
        commit() {
          if (full || fresh.size < count) {
            return {
              ok: false,
              reason: `${count} seeded pets do not fit in the store's budget of ${store.budget.maxStoreBytes} bytes (${fresh.size} did). Ask for fewer pets, or start the mock with a larger --max-store-bytes.`,
            }
          }
          store.replaceWith(fresh)
          state.seed = seed
          state.seededPets = count
          return { ok: true }
        },
      }
    },
  }
  const seeded = state.reset()
  if (!seeded.ok) throw new Error(`Failed to seed the mock: ${seeded.reason}`)
  return state
}
