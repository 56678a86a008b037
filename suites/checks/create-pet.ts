import type { Pet } from '../../contract/types.ts'
import { bodyOf, type Check } from '../check-context.ts'
import { ensure } from '../exchange.ts'
import { negativeBodies } from '../negative-bodies.ts'

const group = 'createPet'

export const createPetChecks: Check[] = [
  {
    group,
    name: 'creates a pet with a status: 201 Pet echoing what was sent, with an id',
    writes: true,
    async run({ send, fixtures }) {
      const sent = { name: `${fixtures.runId} echo`, categoryId: 7, status: 'sold' }
      const created = await send('createPet', 'POST', '/pets', {
        intent: 'valid',
        body: JSON.stringify(sent),
      })
      ensure(
        created.response.status === 201,
        `POST /pets answered ${created.response.status}, expected 201.`,
        created,
      )
      const pet = bodyOf<Pet>(created)
      ensure(
        pet.name === sent.name && pet.categoryId === sent.categoryId && pet.status === sent.status,
        `POST /pets returned ${JSON.stringify(pet)}, which does not echo ${JSON.stringify(sent)}.`,
        created,
      )
    },
  },
  {
    group,
    name: 'creates a pet without a status: 201 Pet (the server may default status)',
    writes: true,
    async run({ send, fixtures }) {
      const sent = { name: `${fixtures.runId} no status`, categoryId: 8 }
      const created = await send('createPet', 'POST', '/pets', {
        intent: 'valid',
        body: JSON.stringify(sent),
      })
      ensure(
        created.response.status === 201,
        `POST /pets answered ${created.response.status}, expected 201.`,
        created,
      )
      const pet = bodyOf<Pet>(created)
      ensure(
        pet.name === sent.name && pet.categoryId === sent.categoryId,
        `POST /pets returned ${JSON.stringify(pet)} for ${JSON.stringify(sent)}.`,
        created,
      )
    },
  },
  {
    group,
    name: 'takes an empty name as valid (the contract sets no minimum length)',
    writes: true,
    async run({ send, warn }) {
      const created = await send('createPet', 'POST', '/pets', {
        intent: 'valid',
        body: '{"name":"","categoryId":1}',
      })
      // Refusing it is stricter than the contract, not a break of it: worth a person's look, not a failure.
      if (created.response.status !== 201)
        warn(`POST /pets refused name "" with ${created.response.status}; the contract allows it.`)
    },
  },
  {
    group,
    name: 'assigns its own id, whatever id the client sends',
    writes: true,
    async run({ send, fixtures }) {
      // A large, random safe integer: no server assigns it by chance.
      const clientId = 2 ** 52 + Math.floor(Math.random() * 2 ** 40)
      const created = await send('createPet', 'POST', '/pets', {
        intent: 'valid',
        body: JSON.stringify({ id: clientId, name: `${fixtures.runId} client id`, categoryId: 1 }),
      })
      ensure(
        created.response.status === 201,
        `POST /pets answered ${created.response.status}, expected 201.`,
        created,
      )
      ensure(
        bodyOf<Pet>(created).id !== clientId,
        `POST /pets used the client-sent id ${clientId} as the pet's id.`,
        created,
      )
    },
  },
  ...negativeBodies('createPet').map(
    ({ description, body }): Check => ({
      group,
      name: `refuses a body ${description} with a 4xx Error`,
      writes: true,
      run: async ({ send }) => {
        await send('createPet', 'POST', '/pets', { intent: 'invalid', body })
      },
    }),
  ),
]
