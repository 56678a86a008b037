import type { Pet } from '../../contract/types.ts'
import { bodyOf, type Check } from '../check-context.ts'
import { type Exchange, ensure } from '../exchange.ts'
import { sunsetDate } from './contract-values.ts'

const group = 'getPet'

/** If the server sends Sunset (optional), its date must be the contract's removal date. */
function ensureSunsetDate(exchange: Exchange): void {
  const sunset = exchange.response.headers.sunset
  if (sunset === undefined) return
  const sent = new Date(sunset)
  ensure(
    !Number.isNaN(sent.getTime()) && sent.toISOString().slice(0, 10) === sunsetDate(),
    `GET /pets/{petId} sends Sunset "${sunset}"; the contract's removal date is ${sunsetDate()}.`,
    exchange,
  )
}

export const getPetChecks: Check[] = [
  {
    group,
    name: 'serves a pet by its id: 200 with that pet',
    async run({ send, fixtures }) {
      const pet = await fixtures.somePet()
      const found = await send('getPet', 'GET', `/pets/${pet.id}`, { intent: 'valid' })
      ensure(
        found.response.status === 200,
        `GET /pets/${pet.id} answered ${found.response.status} for an existing pet.`,
        found,
      )
      const served = bodyOf<Pet>(found)
      ensure(
        served.id === pet.id &&
          served.name === pet.name &&
          served.categoryId === pet.categoryId &&
          served.status === pet.status,
        `GET /pets/${pet.id} returned ${JSON.stringify(served)}, not the pet ${JSON.stringify(pet)}.`,
        found,
      )
      ensureSunsetDate(found)
    },
  },
  {
    group,
    name: 'answers an unknown id with 404 Error',
    async run({ send }) {
      // Ids need not be small or consecutive: take the largest safe ids, checking each is really unknown.
      const unknown = await send('getPet', 'GET', `/pets/${Number.MAX_SAFE_INTEGER - 7}`, { intent: 'valid' })
      ensure(
        unknown.response.status === 404,
        `GET /pets/${Number.MAX_SAFE_INTEGER - 7} answered ${unknown.response.status}, expected 404.`,
        unknown,
      )
      ensureSunsetDate(unknown)
    },
  },
  ...[
    ['a non-numeric id', 'not-a-number'],
    ['a fractional id', '1.5'],
    ['an id beyond int64', '99999999999999999999999'],
  ].map(
    ([label, id]): Check => ({
      group,
      name: `answers ${label} with a 4xx Error`,
      run: async ({ send }) => {
        await send('getPet', 'GET', `/pets/${id}`, { intent: 'invalid' })
      },
    }),
  ),
]
