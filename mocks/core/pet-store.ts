import type { NewPet, Pet, PetStatus } from '../../contract/types.ts'

// Status is stored as a small code; 0 means the pet was created without one (the contract states no default).
const statusNames: (PetStatus | undefined)[] = [undefined, 'available', 'pending', 'sold']
const statusCodes = new Map(statusNames.map((name, code) => [name, code]))

/**
 * The mock's in-memory pets. Ids are assigned in increasing order, so a pet's position is `id - firstId`
 * and each status keeps an ascending list of positions: listing (with or without a status filter) costs
 * O(limit), never O(number of pets). Columns instead of one object per pet keep a million pets small.
 */
export class PetStore {
  private firstId = 1
  private names: string[] = []
  private categoryIds: number[] = []
  private statuses: number[] = []
  private byStatus = new Map<PetStatus, number[]>()

  get size(): number {
    return this.names.length
  }

  /** Changes on every write, so readers can cache what they derived from the pets. */
  get version(): number {
    return this.writes
  }

  private writes = 0

  /** Stores a new pet and returns it with its assigned id. Fields other than NewPet's are not kept. */
  add(pet: NewPet): Pet {
    const position = this.names.length
    this.writes++
    this.names.push(pet.name)
    this.categoryIds.push(pet.categoryId)
    this.statuses.push(statusCodes.get(pet.status) ?? 0)
    if (pet.status) this.positionsOf(pet.status).push(position)
    return this.at(position)
  }

  /** The pet with this id, or undefined. */
  get(id: number): Pet | undefined {
    const position = id - this.firstId
    return Number.isInteger(position) && position >= 0 && position < this.names.length
      ? this.at(position)
      : undefined
  }

  /** Up to `limit` pets in ascending id order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): Pet[] {
    if (status === undefined) {
      const count = Math.min(limit, this.names.length)
      return Array.from({ length: count }, (_, position) => this.at(position))
    }
    return (this.byStatus.get(status) ?? []).slice(0, limit).map((position) => this.at(position))
  }

  /** Forgets every pet; ids start again at 1. */
  clear(): void {
    this.writes++
    this.firstId = 1
    this.names = []
    this.categoryIds = []
    this.statuses = []
    this.byStatus = new Map()
  }

  private positionsOf(status: PetStatus): number[] {
    let positions = this.byStatus.get(status)
    if (!positions) {
      positions = []
      this.byStatus.set(status, positions)
    }
    return positions
  }

  private at(position: number): Pet {
    const status = statusNames[this.statuses[position] ?? 0]
    const pet: Pet = {
      id: this.firstId + position,
      name: this.names[position] ?? '',
      categoryId: this.categoryIds[position] ?? 0,
    }
    if (status) pet.status = status
    return pet
  }
}
