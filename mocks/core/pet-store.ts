// The mock's store of pets: ids, insertion order and status filters, inside a memory budget.
import { type Int64, stringifyExactJson } from '../../contract/exact-json.ts'
import type { ExactNewPet, ExactPet, PetStatus } from '../../contract/types.ts'
import { type MemoryBudget, memoryBudget, petBytes } from './memory-budget.ts'
import { PageCache } from './page-cache.ts'

// Status is stored as a small code; 0 means the pet was created without one (the contract states no default).
const statusNames: (PetStatus | undefined)[] = [undefined, 'available', 'pending', 'sold']
const statusCodes = new Map(statusNames.map((name, code) => [name, code]))

/**
 * Seeded pets that never change, shared by every store started from them: a new session of the HTTP
 * mock, or a reset back to the configured start, takes them in O(1) instead of seeding them again (a
 * million pets took 1-2 s and enough garbage to pause every other session's requests).
 */
export interface SeededPets {
  readonly names: readonly string[]
  readonly categoryIds: readonly Int64[]
  readonly statuses: readonly number[]
  readonly byStatus: ReadonlyMap<PetStatus, readonly number[]>
  readonly bytes: number
}

const noSeededPets: SeededPets = { names: [], categoryIds: [], statuses: [], byStatus: new Map(), bytes: 0 }

/**
 * The mock's in-memory pets, within a byte budget. Ids are assigned in increasing order, so a pet's
 * position is `id - firstId` and each status keeps an ascending list of positions: listing (with or
 * without a status filter) costs O(limit), never O(number of pets). Columns instead of one object per
 * pet keep a million pets small. The first pets may be `SeededPets` shared with other stores (never
 * written); the pets added after them are this store's own.
 */
export class PetStore {
  private ownBudget: Readonly<MemoryBudget>
  private firstId = 1
  private seeded: SeededPets = noSeededPets
  // This store's own pets, after the seeded ones; byStatus holds their positions counted from the first pet.
  private names: string[] = []
  private categoryIds: Int64[] = []
  private statuses: number[] = []
  private byStatus = new Map<PetStatus, number[]>()
  private bytes = 0
  private writes = 0
  // The version the page cache keys on. Pets are only ever appended (or all replaced), so a page that
  // already holds `limit` pets never changes when one is added: only pages with room left are stale then.
  private pageVersion = 0
  private partialPageCached = false
  private readonly pages: PageCache
  private readonly sharedRoom: (() => number) | undefined

  /**
   * @param sharedRoom where stores share one budget (the HTTP mock's sessions), the bytes the others leave
   *   this one; its own `maxStoreBytes` still applies.
   */
  constructor(budget: Partial<MemoryBudget> = {}, sharedRoom?: () => number) {
    this.ownBudget = memoryBudget(budget)
    this.sharedRoom = sharedRoom
    this.pages = new PageCache(this.budget.maxPageCacheBytes, this.budget.maxCachedPageBytes)
  }

  /** The budgets this store keeps to (see memory-budget.ts); `replaceWith` takes the other store's. */
  get budget(): Readonly<MemoryBudget> {
    return this.ownBudget
  }

  get size(): number {
    return this.seeded.names.length + this.names.length
  }

  /** Changes on every write, so readers can cache what they derived from the pets. */
  get version(): number {
    return this.writes
  }

  /** The bytes the stored pets are counted as, against `budget.maxStoreBytes`. */
  get usedBytes(): number {
    return this.bytes
  }

  /** Whether a pet with this name still fits in the budget. */
  fits(pet: ExactNewPet): boolean {
    const bytes = this.bytes + petBytes(pet.name)
    return bytes <= this.budget.maxStoreBytes && (this.sharedRoom === undefined || bytes <= this.sharedRoom())
  }

  /** The same budgets and shared room, no pets: where a reset seeds before taking its place. */
  emptyCopy(budget: Readonly<MemoryBudget> = this.budget): PetStore {
    return new PetStore(budget, this.sharedRoom)
  }

  /** Whether `seeded` fits this store's budget and shared room, were it the only pets. */
  fitsSeeded(seeded: SeededPets): boolean {
    return (
      seeded.bytes <= this.budget.maxStoreBytes &&
      (this.sharedRoom === undefined || seeded.bytes <= this.sharedRoom())
    )
  }

  /** Takes `seeded` as this empty store's first pets; check `fitsSeeded` first. */
  holdSeeded(seeded: SeededPets): void {
    if (this.size > 0) throw new Error('Only an empty store can take seeded pets.')
    this.seeded = seeded
    this.bytes = seeded.bytes
  }

  /**
   * Hands this store's pets over as `SeededPets` for other stores to start from; for a store seeded from
   * nothing (a reset's fresh store). It keeps them as its shared first pets, so later additions never change
   * what was handed over.
   */
  seal(): SeededPets {
    if (this.seeded.names.length > 0) throw new Error('Only a store seeded from nothing can be sealed.')
    this.seeded = {
      names: this.names,
      categoryIds: this.categoryIds,
      statuses: this.statuses,
      byStatus: this.byStatus,
      bytes: this.bytes,
    }
    this.names = []
    this.categoryIds = []
    this.statuses = []
    this.byStatus = new Map()
    return this.seeded
  }

  /**
   * Stores a new pet and returns it with its assigned id, or undefined when the store is full (nothing is
   * stored then). Fields other than NewPet's are not kept.
   */
  tryAdd(pet: ExactNewPet): ExactPet | undefined {
    if (!this.fits(pet)) return undefined
    const position = this.size
    this.writes++
    if (this.partialPageCached) {
      this.pageVersion++
      this.partialPageCached = false
    }
    this.bytes += petBytes(pet.name)
    this.names.push(pet.name)
    this.categoryIds.push(pet.categoryId)
    this.statuses.push(statusCodes.get(pet.status) ?? 0)
    if (pet.status) this.positionsOf(pet.status).push(position)
    return this.at(position)
  }

  /**
   * Stores a new pet and returns it with its assigned id.
   * @throws when the store is full; use `tryAdd` where a full store is an expected answer.
   */
  add(pet: ExactNewPet): ExactPet {
    const added = this.tryAdd(pet)
    if (!added) {
      throw new Error(
        `Failed to add a pet: the store is full (${this.bytes} of ${this.budget.maxStoreBytes} bytes${this.sharedRoom ? ', shared with other sessions' : ''}). Reset it or give it a larger maxStoreBytes.`,
      )
    }
    return added
  }

  /** The pet with this id, or undefined. */
  get(id: Int64): ExactPet | undefined {
    // Ids here are small: an id beyond 2^53 (a bigint) names no pet.
    if (typeof id !== 'number') return undefined
    const position = id - this.firstId
    return Number.isInteger(position) && position >= 0 && position < this.size ? this.at(position) : undefined
  }

  /** Up to `limit` pets in ascending id order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): ExactPet[] {
    return this.positions(limit, status).map((position) => this.at(position))
  }

  /**
   * The JSON array `list(limit, status)` would give, cached until the next write. The page stops once it
   * passes `budget.maxPageBytes` (with at least one pet), so no page costs more than that to build.
   */
  listJson(limit: number, status?: PetStatus): string {
    const key = status === undefined ? limit : `${limit}:${status}`
    const cached = this.pages.get(this.pageVersion, String(key))
    if (cached !== undefined) return cached
    const positions = this.positions(limit, status)
    // Estimated JSON size per pet: its name plus ~70 characters of id, category, status and punctuation.
    let count = 0
    for (let chars = 0; count < positions.length && chars <= this.budget.maxPageBytes; count++) {
      chars += this.nameAt(positions[count] ?? 0).length + 70
    }
    // JSON.stringify over objects of one shape is V8's fast path: faster than assembling the text by hand.
    // (stringifyExactJson is JSON.stringify until a category id beyond 2^53 needs its exact digits.)
    const json = stringifyExactJson(positions.slice(0, count).map((position) => this.at(position)))
    if (positions.length < limit) this.partialPageCached = true
    this.pages.set(this.pageVersion, String(key), json)
    return json
  }

  /** Shrinks the byte budget to the pets stored, so no further pet fits: the `full` scenario. */
  shrinkBudgetToContents(): void {
    this.ownBudget = { ...this.ownBudget, maxStoreBytes: this.bytes }
  }

  /** Forgets every pet; ids start again at 1. */
  clear(): void {
    this.replaceWith(this.emptyCopy())
  }

  /**
   * Takes over every pet of `other` (built aside, e.g. seeded in steps) in one step, so readers holding
   * this store see the old pets until the new ones are complete. `other` must not be used afterwards.
   */
  replaceWith(other: PetStore): void {
    this.writes++
    this.pageVersion++
    this.partialPageCached = false
    this.firstId = other.firstId
    this.seeded = other.seeded
    this.names = other.names
    this.categoryIds = other.categoryIds
    this.statuses = other.statuses
    this.byStatus = other.byStatus
    this.bytes = other.bytes
    // Only maxStoreBytes may differ (the `full` scenario); the page cache keeps its own sizes.
    this.ownBudget = other.ownBudget
  }

  private positions(limit: number, status: PetStatus | undefined): number[] {
    if (status === undefined) {
      return Array.from({ length: Math.min(limit, this.size) }, (_, position) => position)
    }
    const seeded = this.seeded.byStatus.get(status) ?? []
    if (seeded.length >= limit) return seeded.slice(0, limit)
    return seeded.concat((this.byStatus.get(status) ?? []).slice(0, limit - seeded.length))
  }

  private positionsOf(status: PetStatus): number[] {
    let positions = this.byStatus.get(status)
    if (!positions) {
      positions = []
      this.byStatus.set(status, positions)
    }
    return positions
  }

  private nameAt(position: number): string {
    const own = position - this.seeded.names.length
    return (own < 0 ? this.seeded.names[position] : this.names[own]) ?? ''
  }

  private at(position: number): ExactPet {
    const own = position - this.seeded.names.length
    const seeded = own < 0
    const status = statusNames[(seeded ? this.seeded.statuses[position] : this.statuses[own]) ?? 0]
    const pet: ExactPet = {
      id: this.firstId + position,
      name: this.nameAt(position),
      categoryId: (seeded ? this.seeded.categoryIds[position] : this.categoryIds[own]) ?? 0,
    }
    if (status) pet.status = status
    return pet
  }
}
