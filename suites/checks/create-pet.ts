import { type Check, createPetStep } from '../check-context.ts'
import { ensure } from '../exchange.ts'
import { negativeBodies } from '../negative-bodies.ts'

const group = 'createPet'

export const createPetChecks: Check[] = [
  {
    group,
    name: 'creates a pet with a status: 201 Pet echoing what was sent, with an id',
    writes: true,
    async run(context) {
      const sent = { name: `${context.fixtures.runId} echo`, categoryId: 7, status: 'sold' }
      const { pet, exchange } = await createPetStep(context, sent)
      ensure(
        pet.name === sent.name && pet.categoryId === sent.categoryId && pet.status === sent.status,
        `POST /pets returned ${JSON.stringify(pet)}, which does not echo ${JSON.stringify(sent)}.`,
        exchange,
      )
    },
  },
  {
    group,
    name: 'creates a pet without a status: 201 Pet (the server may default status)',
    writes: true,
    async run(context) {
      const sent = { name: `${context.fixtures.runId} no status`, categoryId: 8 }
      const { pet, exchange } = await createPetStep(context, sent)
      ensure(
        pet.name === sent.name && pet.categoryId === sent.categoryId,
        `POST /pets returned ${JSON.stringify(pet)} for ${JSON.stringify(sent)}.`,
        exchange,
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
    async run(context) {
      // A large, random safe integer: no server assigns it by chance.
      const clientId = 2 ** 52 + Math.floor(Math.random() * 2 ** 40)
      const body = { id: clientId, name: `${context.fixtures.runId} client id`, categoryId: 1 }
      const { pet, exchange } = await createPetStep(context, body)
      ensure(pet.id !== clientId, `POST /pets used the client-sent id ${clientId} as the pet's id.`, exchange)
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
