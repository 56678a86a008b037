// The getPet checks: a pet served by its id, Sunset as the contract dates it, unknown and invalid ids.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import type { Pet } from '../../contract/types.ts'
import { bodyOf, type Check, CheckSkipped, changedValue, differences, ensure } from '../engine/index.ts'
import type { Exchange } from '../judging/index.ts'
import { sunsetDate } from './contract-values.ts'
import { unlikelyId } from './stateful-model.ts'

const group = 'getPet'
const notFound = { rule: 'wrong-status', where: 'getPet unknown id' } as const

/** If the server sends Sunset (optional), its date must be the contract's removal date. */
function ensureSunsetDate(exchange: Exchange): void {
  const sunset = exchange.response.headers.sunset
  if (sunset === undefined) return
  const sent = new Date(sunset)
  ensure(
    !Number.isNaN(sent.getTime()) && sent.toISOString().slice(0, 10) === sunsetDate(),
    { rule: 'header', where: 'header sunset' },
    `GET /pets/{petId} sends Sunset "${sunset}"; the contract's removal date is ${sunsetDate()}.`,
    exchange,
  )
}

export const getPetChecks: Check[] = [
  {
    group,
    name: 'serves a pet by its id: 200 with that pet',
    async run({ send, fixtures, target }) {
      const pet = await fixtures.somePet()
      const found = await send('getPet', { intent: 'valid', path: { petId: pet.id } })
      const served = bodyOf<Pet>(found, { rule: 'lost-write', where: 'stored pets can be read back' }, 200)
      // Created by this run: compare with what it sent; reused from an earlier run or read-only: with the pet
      // as listed (the API cannot change a pet, so every read shows the same one).
      const reused = await fixtures.reusedPet()
      const expected =
        target.readOnly || reused ? pet : (await fixtures.createdPets()).byStatus.available.sent
      const changed = [
        ...(served.id === pet.id ? [] : [`id ${pet.id} came back as ${stringifyExactJson(served.id)}`]),
        ...differences(expected, served),
      ]
      ensure(changed.length === 0, changedValue, `GET /pets/${pet.id}: ${changed.join('; ')}.`, found)
      ensureSunsetDate(found)
    },
  },
  {
    group,
    name: 'answers an unknown id with 404 Error',
    async run({ send }) {
      // Ids need not be small or consecutive, and any int64 may be one: take ids no server plausibly
      // gives out, and should one hold a pet after all (a 200 with that very id), another.
      for (const offset of [7, 7_777_777, 777_777_777_777]) {
        const petId = unlikelyId - offset
        const unknown = await send('getPet', { intent: 'valid', path: { petId } })
        const served =
          unknown.bodyUsable && unknown.response.status === 200
            ? bodyOf<Pet>(unknown, notFound, 200)
            : undefined
        if (served?.id === petId) continue
        bodyOf(unknown, notFound, 404)
        ensureSunsetDate(unknown)
        return
      }
      throw new CheckSkipped('The server holds a pet at every id tried as unknown.')
    },
  },
  ...[
    ['a non-numeric id', 'not-a-number'],
    ['a fractional id', '1.5'],
    ['an id beyond int64', '99999999999999999999999'],
  ].map(
    ([label, petId]): Check => ({
      group,
      name: `answers ${label} with a 4xx Error`,
      run: async ({ send }) => {
        await send('getPet', { intent: 'invalid', fault: 'path petId', path: { petId: String(petId) } })
      },
    }),
  ),
]
