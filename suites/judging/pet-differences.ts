// How a pet came back other than it was sent: the changed fields, and lone surrogates as U+FFFD excused.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import { contract } from '../../contract/index.ts'
import type { NewPet, Pet } from '../../contract/types.ts'

/**
 * A pet that comes back other than it was sent. One finding whichever field differs: one defect (a race
 * that overwrites pets, say) changes several fields at once, and the message names each.
 */
export const changedValue = { rule: 'changed-value', where: 'pets come back as they were sent' } as const

const newPetFields = Object.keys(
  (contract.document.components?.schemas?.NewPet as { properties?: object })?.properties ?? {},
) as (keyof NewPet)[]

/**
 * The NewPet fields that were sent and came back otherwise (compared exactly: int64s as bigints). A lone
 * surrogate escape stored as U+FFFD is not a change: it is not Unicode, RFC 8259 §8.2 leaves receivers'
 * behaviour open and I-JSON (RFC 7493 §2.1) forbids it, so replacing it is the receiver's right (Go's
 * encoding/json does). Every other change (NUL, combining marks, normalisation) is one.
 */
export function changedFields(sent: NewPet, served: Partial<Pet>): (keyof NewPet)[] {
  return newPetFields.filter(
    (field) =>
      sent[field] !== undefined &&
      served[field] !== sent[field] &&
      !surrogateReplaced(sent[field], served[field]),
  )
}

/** The NewPet fields whose lone surrogates came back as U+FFFD (and nothing else changed). */
export function surrogatesReplaced(sent: NewPet, served: Partial<Pet>): (keyof NewPet)[] {
  return newPetFields.filter(
    (field) => served[field] !== sent[field] && surrogateReplaced(sent[field], served[field]),
  )
}

function surrogateReplaced(sent: unknown, served: unknown): boolean {
  return (
    typeof sent === 'string' &&
    typeof served === 'string' &&
    served !== sent &&
    sent.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd') ===
      served
  )
}

/** The note a report gives a server that stores lone surrogates as U+FFFD: allowed, worth knowing. */
export const surrogateNote =
  'The server stores a lone surrogate escape ("\\ud800") as U+FFFD, as Go’s encoding/json does: allowed (a lone surrogate is not Unicode; RFC 8259 §8.2, RFC 7493 §2.1), so not a failure; a client that sends one gets U+FFFD back.'

/** The parts of a NewPet a server must give back unchanged (`status` only when it was sent). */
export function differences(sent: NewPet, served: Partial<Pet>): string[] {
  return changedFields(sent, served).map(
    (field) =>
      `${field} ${stringifyExactJson(sent[field])} came back as ${stringifyExactJson(served[field])}`,
  )
}
