// Keeps the browser mock's pets across reloads of a tab in sessionStorage, within a size budget.
import { parseExactJson, stringifyExactJson } from '../contract/exact-json.ts'
import type { ExactNewPet } from '../contract/types.ts'
import type { MockState } from './core/mock-state.ts'
import { PetStore } from './core/pet-store.ts'

/** The most a saved store may take in sessionStorage (browsers allow ~5 MB per origin, shared with the app). */
const maxPersistedBytes = 2 * 1024 * 1024

const storageKey = 'animal-store-mock:pets'

/** The part of the Web Storage API this uses (sessionStorage in a browser). */
export interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * Keeps the mock's pets across reloads of one tab: restores them now (when a snapshot taken with the same
 * seed and scenario exists) and returns a function to call after each request, which saves the pets when
 * they changed. Pets are appended in id order, so adding them again gives back the same ids. A store over
 * `maxPersistedBytes` is not saved (the next reload starts fresh) and `warn` says so once.
 */
export function persistPets(
  state: MockState,
  storage: KeyValueStorage,
  warn: (line: string) => void,
): () => void {
  const identity = `${state.seed}:${state.scenario}`
  restore(state, storage, identity)
  let saved = state.store.version
  let warned = false
  return () => {
    if (state.store.version === saved) return
    saved = state.store.version
    const pets = state.store.list(state.store.size).map(({ name, categoryId, status }) => ({
      name,
      categoryId,
      ...(status === undefined ? {} : { status }),
    }))
    const text = stringifyExactJson({ identity, pets })
    // UTF-16 in storage: two bytes a unit is what the quota counts in Chromium and Firefox.
    if (text.length * 2 > maxPersistedBytes) {
      storage.removeItem(storageKey)
      if (!warned)
        warn(
          `animal-store mock: ${pets.length} pets are over the ${maxPersistedBytes / 1024 / 1024} MB persist budget; a reload will start from the seed.`,
        )
      warned = true
      return
    }
    try {
      storage.setItem(storageKey, text)
    } catch {
      // The origin's quota is shared with the app: a full storage means a fresh start, not a broken mock.
      storage.removeItem(storageKey)
    }
  }
}

function restore(state: MockState, storage: KeyValueStorage, identity: string): void {
  const text = storage.getItem(storageKey)
  if (text === null || text.length * 2 > maxPersistedBytes) return
  let snapshot: { identity?: unknown; pets?: unknown }
  try {
    snapshot = parseExactJson(text) as typeof snapshot
  } catch {
    return
  }
  if (snapshot.identity !== identity || !Array.isArray(snapshot.pets)) return
  const store = new PetStore(state.store.budget)
  for (const pet of snapshot.pets as ExactNewPet[]) if (!store.tryAdd(pet)) return
  state.store.replaceWith(store)
}
