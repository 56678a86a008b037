// The byte budgets of the store and the page cache, and what a stored pet is counted as costing.
/**
 * Byte budgets for everything the mock keeps or builds per request. Sizes are estimates of what V8 holds,
 * counted conservatively: a string costs 2 bytes per UTF-16 unit (V8 stores Latin-1 strings in 1), so the
 * real heap stays under the budget.
 */
export interface MemoryBudget {
  /** Stored pets, seeded and created: 256 MiB by default (a million seeded pets take ~46 MiB). */
  maxStoreBytes: number
  /** All cached list pages together (16 MiB by default). */
  maxPageCacheBytes: number
  /** A page above this is served but not cached (256 KiB by default; 100 seeded pets are ~7 KiB). */
  maxCachedPageBytes: number
  /**
   * A list page stops growing once its JSON passes this size, always holding at least one pet (1 MiB by
   * default). `limit` is a maximum (the contract: "Maximum number of animals returned"), so a shorter
   * page conforms; without it, 100 pets with 1 MiB names make a 100 MiB response per request.
   */
  maxPageBytes: number
}

export const defaultMemoryBudget: Readonly<MemoryBudget> = {
  maxStoreBytes: 256 * 1024 * 1024,
  maxPageCacheBytes: 16 * 1024 * 1024,
  maxCachedPageBytes: 256 * 1024,
  maxPageBytes: 1024 * 1024,
}

/** What one stored pet costs besides its name: three column slots, a status-index slot, slack. */
const petOverheadBytes = 32

/** The bytes a stored pet with this name is counted as. */
export function petBytes(name: string): number {
  return petOverheadBytes + name.length * 2
}

/** The budget with `overrides` applied (undefined keeps the default). */
export function memoryBudget(overrides: Partial<MemoryBudget> = {}): MemoryBudget {
  const budget = { ...defaultMemoryBudget }
  for (const [name, value] of Object.entries(overrides) as [keyof MemoryBudget, number | undefined][]) {
    if (value !== undefined) budget[name] = value
  }
  return budget
}
