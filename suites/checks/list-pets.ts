// The listPets checks: the default and given limits, refused limits, status filters, conforming pages.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import { type Check, CheckSkipped, ensure, listPets as list } from '../engine/index.ts'
import { statuses } from './contract-values.ts'

const group = 'listPets'
const limitRule = { rule: 'limit', where: 'query limit' } as const

export const listPetsChecks: Check[] = [
  {
    group,
    name: 'answers 200 with a bare array of Pet, at most 20 by default',
    async run(context) {
      await context.fixtures.atLeast(21)
      const { listed, pets } = await list(context, {})
      ensure(
        pets.length + (listed.setAside ?? 0) <= 20,
        limitRule,
        `GET /pets without limit returned ${pets.length + (listed.setAside ?? 0)} pets; the default limit is 20.`,
        listed,
      )
    },
  },
  ...[1, 2, 100].map(
    (limit): Check => ({
      group,
      name: `accepts limit=${limit} and returns at most ${limit} pets`,
      async run(context) {
        // One more pet than the limit must exist, or a server ignoring the limit would pass unseen.
        if (limit < 100) await context.fixtures.atLeast(limit + 1)
        const { listed, pets } = await list(context, { limit })
        ensure(
          pets.length + (listed.setAside ?? 0) <= limit,
          limitRule,
          `GET /pets?limit=${limit} returned ${pets.length + (listed.setAside ?? 0)} pets.`,
          listed,
        )
      },
    }),
  ),
  ...['0', '101', '-1', '1.5', 'ten'].map(
    (limit): Check => ({
      group,
      name: `refuses limit=${limit} with a 4xx Error`,
      run: async ({ send }) => {
        await send('listPets', { intent: 'invalid', fault: 'query limit', query: { limit } })
      },
    }),
  ),
  ...statuses().map(
    (status): Check => ({
      group,
      name: `keeps only ${status} pets with status=${status}`,
      async run(context) {
        const { listed, pets } = await list(context, { status, limit: 100 })
        const others = pets.filter((pet) => pet.status !== status)
        ensure(
          others.length === 0,
          { rule: 'filter', where: 'query status' },
          `GET /pets?status=${status} returned pets with status ${others.map((pet) => stringifyExactJson(pet.status)).join(', ')}.`,
          listed,
        )
      },
    }),
  ),
  {
    group,
    name: 'refuses an unknown status with a 4xx Error',
    run: async ({ send }) => {
      await send('listPets', { intent: 'invalid', fault: 'query status', query: { status: 'not-a-status' } })
    },
  },
  {
    group,
    name: 'lists pets whose every field conforms, on a full page',
    async run(context) {
      const { pets } = await list(context, { limit: 100 })
      if (pets.length === 0) throw new CheckSkipped('The server lists no pets.')
    },
  },
]
