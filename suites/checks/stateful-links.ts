import type { Pet } from '../../contract/types.ts'
import { bodyOf, type Check, createPetStep } from '../check-context.ts'
import { ensure } from '../exchange.ts'

const group = 'stateful links'

export const statefulChecks: Check[] = [
  {
    group,
    name: 'a created pet is served unchanged by GET /pets/{petId}',
    writes: true,
    async run({ send, fixtures }) {
      const { byStatus, withoutStatus } = await fixtures.createdPets()
      for (const pet of [...Object.values(byStatus), withoutStatus]) {
        const found = await send('getPet', 'GET', `/pets/${pet.id}`, { intent: 'valid' })
        ensure(
          found.response.status === 200,
          `GET /pets/${pet.id} answered ${found.response.status} for a pet just created.`,
          found,
        )
        const served = bodyOf<Pet>(found)
        ensure(
          JSON.stringify(sorted(served)) === JSON.stringify(sorted(pet)),
          `GET /pets/${pet.id} returned ${JSON.stringify(served)}; POST returned ${JSON.stringify(pet)}.`,
          found,
        )
      }
    },
  },
  {
    group,
    name: 'two creates get different ids',
    writes: true,
    async run({ fixtures }) {
      const { byStatus, withoutStatus } = await fixtures.createdPets()
      const ids = [...Object.values(byStatus), withoutStatus].map((pet) => pet.id)
      ensure(
        new Set(ids).size === ids.length,
        `Four creates returned the ids ${ids.join(', ')}: not all different.`,
      )
    },
  },
  {
    group,
    name: 'nothing created is lost: 10 concurrent creates are all retrievable',
    writes: true,
    async run(context) {
      const { send, fixtures } = context
      const created = await Promise.all(
        Array.from({ length: 10 }, async (_, index) => {
          const body = { name: `${fixtures.runId} burst ${index}`, categoryId: 2, status: 'available' }
          return (await createPetStep(context, body)).pet
        }),
      )
      const ids = created.map((pet) => pet.id)
      ensure(new Set(ids).size === 10, `10 concurrent creates returned duplicate ids: ${ids.join(', ')}.`)
      for (const pet of created) {
        const found = await send('getPet', 'GET', `/pets/${pet.id}`, { intent: 'valid' })
        ensure(
          found.response.status === 200 && bodyOf<Pet>(found).name === pet.name,
          `Pet ${pet.id} (${pet.name}) was created but is not served.`,
          found,
        )
      }
    },
  },
]

function sorted(pet: Pet): [string, unknown][] {
  return Object.entries(pet).sort(([a], [b]) => a.localeCompare(b))
}
