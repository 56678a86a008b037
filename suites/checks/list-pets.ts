import type { Pet, PetStatus } from '../../contract/types.ts'
import { bodyOf, type Check, CheckSkipped } from '../check-context.ts'
import { ensure } from '../exchange.ts'
import { statuses } from './contract-values.ts'

const group = 'listPets'

export const listPetsChecks: Check[] = [
  {
    group,
    name: 'answers 200 with a bare array of Pet, at most 20 by default',
    async run({ send, fixtures }) {
      await fixtures.atLeast(21)
      const listed = await send('listPets', 'GET', '/pets', { intent: 'valid' })
      ensure(
        listed.response.status === 200,
        `GET /pets answered ${listed.response.status}, expected 200.`,
        listed,
      )
      const pets = bodyOf<Pet[]>(listed)
      ensure(
        pets.length <= 20,
        `GET /pets without limit returned ${pets.length} pets; the default limit is 20.`,
        listed,
      )
    },
  },
  ...[1, 2, 100].map(
    (limit): Check => ({
      group,
      name: `accepts limit=${limit} and returns at most ${limit} pets`,
      async run({ send, fixtures }) {
        // One more pet than the limit must exist, or a server ignoring the limit would pass unseen.
        if (limit < 100) await fixtures.atLeast(limit + 1)
        const listed = await send('listPets', 'GET', `/pets?limit=${limit}`, { intent: 'valid' })
        ensure(
          listed.response.status === 200,
          `GET /pets?limit=${limit} answered ${listed.response.status}, expected 200.`,
          listed,
        )
        const pets = bodyOf<Pet[]>(listed)
        ensure(pets.length <= limit, `GET /pets?limit=${limit} returned ${pets.length} pets.`, listed)
      },
    }),
  ),
  ...['0', '101', '-1', '1.5', 'ten'].map(
    (limit): Check => ({
      group,
      name: `refuses limit=${limit} with a 4xx Error`,
      run: async ({ send }) => {
        await send('listPets', 'GET', `/pets?limit=${encodeURIComponent(limit)}`, { intent: 'invalid' })
      },
    }),
  ),
  ...statuses().map(
    (status): Check => ({
      group,
      name: `keeps only ${status} pets with status=${status}`,
      async run({ send, fixtures, target, warn }) {
        const created = target.readOnly
          ? undefined
          : (await fixtures.createdPets()).byStatus[status as PetStatus]
        const listed = await send('listPets', 'GET', `/pets?status=${status}&limit=100`, { intent: 'valid' })
        ensure(
          listed.response.status === 200,
          `GET /pets?status=${status} answered ${listed.response.status}.`,
          listed,
        )
        const pets = bodyOf<Pet[]>(listed)
        const others = pets.filter((pet) => pet.status !== status)
        ensure(
          others.length === 0,
          `GET /pets?status=${status} returned pets with status ${others.map((pet) => pet.status).join(', ')}.`,
          listed,
        )
        if (created === undefined) return
        if (pets.some((pet) => pet.id === created.id)) return
        // With a full page the pet may simply be on a page the contract gives no way to reach.
        if (pets.length >= 100)
          warn(
            `Pet ${created.id} (${status}) is not on the first page of 100; the contract has no further pages.`,
          )
        else
          ensure(
            false,
            `Pet ${created.id}, created with status ${status}, is missing from GET /pets?status=${status}.`,
            listed,
          )
      },
    }),
  ),
  {
    group,
    name: 'refuses an unknown status with a 4xx Error',
    run: async ({ send }) => {
      await send('listPets', 'GET', '/pets?status=not-a-status', { intent: 'invalid' })
    },
  },
  {
    group,
    name: 'lists pets whose every field conforms, on a full page',
    async run({ send }) {
      const listed = await send('listPets', 'GET', '/pets?limit=100', { intent: 'valid' })
      if (bodyOf<Pet[]>(listed).length === 0) throw new CheckSkipped('The server lists no pets.')
    },
  },
]
