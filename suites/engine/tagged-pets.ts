// The kit's tag on the pets it creates (a name prefix), the count of tagged pets a run can see, and which one it reuses.
import { contract } from '../../contract/index.ts'
import { isRecord } from '../../contract/openapi-document.ts'
import type { Pet } from '../../contract/types.ts'

/**
 * What a run saw of the pets earlier runs left: the tagged pets on the first pages it could list.
 * The contract has no paging past `limit` (at most 100), so this is a lower bound once a page was full.
 */
export interface TaggedCensus {
  /** Distinct tagged pets seen, in the order first listed. */
  tagged: Pet[]
  /** A page came back full: more tagged pets may be on pages the contract gives no way to reach. */
  bounded: boolean
  /** How many pets the unfiltered first page held, tagged or not (at most 100). */
  listed: number
  /** The listings could not be read (the checks that list judge why): nothing is known. */
  unknown?: boolean
}

// A Pet has only name, categoryId, status and id: the name is the one field that can carry a tag. A
// run names every pet it tags `<prefix>-<6 hex> …` (check-context.ts), so any run with that prefix is found.
const runIdPattern = '-[0-9a-f]{6}(?: |$)'

/** Whether a pet's name carries the tag of a run with this name prefix (`conformance-1a2b3c …`). */
export function isTagged(name: unknown, namePrefix: string): boolean {
  if (typeof name !== 'string' || !name.startsWith(namePrefix)) return false
  return new RegExp(`^${runIdPattern}`).test(name.slice(namePrefix.length))
}

/** The queries a census lists: the unfiltered first page and each status's, 100 each (the contract's maximum). */
export function censusQueries(): Record<string, string | number>[] {
  const schema = contract.document.components?.schemas?.PetStatus
  const statuses = isRecord(schema) && Array.isArray(schema.enum) ? schema.enum.map(String) : []
  return [{ limit: 100 }, ...statuses.map((status) => ({ status, limit: 100 }))]
}

/**
 * Counts the tagged pets on the pages listed (each with how many records its page held, broken ones
 * included, to know whether it was full).
 */
export function countTagged(pages: { pets: Pet[]; length: number }[], namePrefix: string): TaggedCensus {
  const byId = new Map<string, Pet>()
  for (const { pets } of pages)
    for (const pet of pets)
      if (isTagged(pet.name, namePrefix) && !byId.has(String(pet.id))) byId.set(String(pet.id), pet)
  return {
    tagged: [...byId.values()],
    bounded: pages.some(({ length }) => length >= 100),
    listed: pages[0]?.length ?? 0,
  }
}

/**
 * The tagged pet an earlier run left that a reading check reuses, or none: the one with the smallest id,
 * whatever order the server listed them in, so the same pets on the server give the same choice however
 * requests were scheduled. Pets of this run (`runId`) are never reused.
 */
export function reusablePet(census: TaggedCensus, runId: string): Pet | undefined {
  const earlier = census.tagged.filter((pet) => pet.name !== runId && !pet.name.startsWith(`${runId} `))
  return earlier.reduce<Pet | undefined>(
    (smallest, pet) => (smallest === undefined || BigInt(pet.id) < BigInt(smallest.id) ? pet : smallest),
    undefined,
  )
}
