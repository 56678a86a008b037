import { stringifyExactJson } from '../contract/exact-json.ts'
import { contract } from '../contract/index.ts'
import type { NewPet, Pet } from '../contract/types.ts'

/**
 * A pet that comes back other than it was sent. One finding whichever field differs: one defect (a race
 * that overwrites pets, say) changes several fields at once, and the message names each.
 */
export const changedValue = { rule: 'changed-value', where: 'pets come back as they were sent' } as const

const newPetFields = Object.keys(
  (contract.document.components?.schemas?.NewPet as { properties?: object })?.properties ?? {},
) as (keyof NewPet)[]

/** The NewPet fields that were sent and came back otherwise (compared exactly: int64s as bigints). */
export function changedFields(sent: NewPet, served: Partial<Pet>): (keyof NewPet)[] {
  return newPetFields.filter((field) => sent[field] !== undefined && served[field] !== sent[field])
}

/** The parts of a NewPet a server must give back unchanged (`status` only when it was sent). */
export function differences(sent: NewPet, served: Partial<Pet>): string[] {
  return changedFields(sent, served).map(
    (field) =>
      `${field} ${stringifyExactJson(sent[field])} came back as ${stringifyExactJson(served[field])}`,
  )
}
