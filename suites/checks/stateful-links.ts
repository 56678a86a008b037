// The stateful checks: created pets read back, listed under their filter, never lost, at the run's end too.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import type { Pet } from '../../contract/types.ts'
import {
  bodyOf,
  type Check,
  type CheckContext,
  CheckFailure,
  CheckSkipped,
  type CreatedPet,
  changedValue,
  createPetStep,
  differences,
  duplicateIds,
  ensure,
  listPets,
} from '../engine/index.ts'

const group = 'stateful'
const lost = { rule: 'lost-write', where: 'stored pets can be read back' } as const

/**
 * Reads a created pet back by the id the server assigned and compares it with what was sent, and with
 * what its 201 showed of the fields it was not sent (a status the server chose): the API cannot change a
 * pet, so every read shows the same one (the stateful model holds reads to the same rule).
 */
async function readBack(context: CheckContext, { sent, pet }: CreatedPet) {
  const found = await context.send('getPet', { intent: 'valid', path: { petId: pet.id } })
  const served = bodyOf<Pet>(found, lost, 200)
  const shown = { ...pet, ...sent }
  const changed = [
    ...(served.id === pet.id ? [] : [`id ${pet.id} came back as ${stringifyExactJson(served.id)}`]),
    ...differences(shown, served),
  ]
  ensure(
    changed.length === 0,
    changedValue,
    `GET /pets/${pet.id}, created as ${stringifyExactJson(sent)} (its 201 showed ${stringifyExactJson(pet)}): ${changed.join('; ')}.`,
    found,
  )
}

/** Reads back the run's first pets: one of each status and one created without. */
async function readBackFirstPets(context: CheckContext) {
  const { byStatus, withoutStatus } = await context.fixtures.createdPets()
  await inOrder([...Object.values(byStatus), withoutStatus].map((created) => readBack(context, created)))
}

/**
 * Reads of single pets sent at once, judged in the order given: the first that failed is the finding,
 * whichever answered first, so the verdict is the one they would give one after another. Lists stay one
 * after another: each can hold a body near the byte cap until its deadline, and the checks in flight
 * already hold one each (bounded-memory.process.test.ts).
 */
async function inOrder(reads: Promise<void>[]): Promise<void> {
  const settled = await Promise.allSettled(reads)
  const failed = settled.find((read) => read.status === 'rejected')
  if (failed) throw failed.reason
}

/**
 * Runs once every other check has finished: the pets the run created first are still there, unchanged,
 * after all the creates since. A store that evicts (an LRU cache, a capped table) loses them by then.
 */
export const createdPetsSurvive: Check = {
  group,
  name: 'the pets created first are still served, unchanged, at the end of the run',
  writes: true,
  run: readBackFirstPets,
}

export const statefulChecks: Check[] = [
  {
    group,
    name: 'a created pet is served by GET /pets/{petId} as it was sent',
    writes: true,
    run: readBackFirstPets,
  },
  {
    group,
    name: 'a pet created with a status is listed under that filter as it was sent',
    writes: true,
    async run(context) {
      const { byStatus } = await context.fixtures.createdPets()
      const beyondFirstPage: string[] = []
      for (const [status, { sent, pet }] of Object.entries(byStatus)) {
        const { listed, pets } = await listPets(context, { status, limit: 100 })
        const found = pets.find((candidate) => candidate.id === pet.id)
        // The contract pages by `limit` alone (at most 100) and states no order: on a full page, a pet
        // missing is no evidence, and nothing on the target is wrong. Only a page with room left can judge.
        if (!found && pets.length + (listed.setAside ?? 0) >= 100) {
          beyondFirstPage.push(`${status} (pet ${pet.id})`)
          continue
        }
        ensure(
          found,
          lost,
          `Pet ${pet.id}, created with status ${status}, is missing from GET /pets?status=${status} (${pets.length} pets listed).`,
          listed,
        )
        const changed = differences(sent, found)
        ensure(
          changed.length === 0,
          changedValue,
          `Pet ${pet.id} in GET /pets?status=${status}: ${changed.join('; ')}.`,
          listed,
        )
      }
      if (beyondFirstPage.length === Object.keys(byStatus).length)
        throw new CheckSkipped(
          `Every status's first page of 100 was full without the pet this run created (${beyondFirstPage.join(', ')}), and the contract gives no further pages: not judged. Cleaning up earlier runs' pets (docs/conformance.md) brings it back.`,
        )
    },
  },
  {
    group,
    name: 'a status filter fills a short page: ?status=S&limit=1 lists a pet once an S pet exists',
    writes: true,
    async run(context) {
      // Deterministic where random sequences only sometimes are: a server that takes `limit` rows first
      // and filters them afterwards answers an empty page here whenever its first row has another status.
      const { byStatus } = await context.fixtures.createdPets()
      for (const [status, { pet }] of Object.entries(byStatus)) {
        const { listed, pets } = await listPets(context, { status, limit: 1 })
        ensure(
          // A record already reported broken still fills the page: it is there, judged once elsewhere.
          pets.length + (listed.setAside ?? 0) > 0,
          lost,
          `GET /pets?status=${status}&limit=1 listed no pet, though pet ${pet.id} was created with status ${status}: a page that is not full must hold every matching pet.`,
          listed,
        )
      }
    },
  },
  {
    group,
    name: 'creates get different ids, even for identical bodies',
    writes: true,
    async run(context) {
      const body = { name: `${context.fixtures.runId} twin`, categoryId: 6, status: 'pending' } as const
      const created = [await createPetStep(context, body), await createPetStep(context, body)]
      const ids = created.map(({ pet }) => pet.id)
      if (new Set(ids).size !== ids.length) throw new CheckFailure(duplicateIds(ids, created[1]?.exchange))
    },
  },
  {
    group,
    name: 'nothing created is lost: 10 concurrent creates are all retrievable as sent',
    writes: true,
    async run(context) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          createPetStep(context, {
            name: `${context.fixtures.runId} burst ${index}`,
            categoryId: 2,
            status: 'available',
          }),
        ),
      )
      const ids = created.map(({ pet }) => pet.id)
      if (new Set(ids).size !== ids.length)
        throw new CheckFailure(duplicateIds(ids, created.at(-1)?.exchange))
      await inOrder(created.map((pet) => readBack(context, pet)))
    },
  },
]
