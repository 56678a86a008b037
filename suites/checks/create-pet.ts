// The createPet checks: a 201 echoing what was sent, the server's own id, negative bodies refused.
import type { NewPet } from '../../contract/types.ts'
import { type Check, changedValue, createPetStep, differences, ensure } from '../engine/index.ts'
import { negativeBodies } from '../values/index.ts'

const group = 'createPet'

/** Creates a pet and checks the 201 body gives back what was sent, with an id of the server's. */
const echoes = (label: string, sent: (runId: string) => NewPet): Check => ({
  group,
  name: `creates a pet ${label}: 201 Pet echoing what was sent, with an id`,
  writes: true,
  async run(context) {
    const { pet, exchange } = await createPetStep(context, sent(context.fixtures.runId))
    const changed = differences(sent(context.fixtures.runId), pet)
    ensure(changed.length === 0, changedValue, `POST /pets: ${changed.join('; ')}.`, exchange)
  },
})

export const createPetChecks: Check[] = [
  echoes('with a status', (runId) => ({ name: `${runId} echo`, categoryId: 7, status: 'sold' })),
  echoes('without a status (the server may default it)', (runId) => ({
    name: `${runId} no status`,
    categoryId: 8,
  })),
  {
    group,
    name: 'assigns its own id, whatever id the client sends',
    writes: true,
    async run(context) {
      // A large, random safe integer: no server assigns it by chance.
      const clientId = 2 ** 52 + Math.floor(Math.random() * 2 ** 40)
      const sent = { id: clientId, name: `${context.fixtures.runId} client id`, categoryId: 1 }
      const { pet, exchange } = await createPetStep(context, sent as NewPet)
      ensure(
        pet.id !== clientId,
        { rule: 'client-id', where: 'createPet id' },
        `POST /pets used the client-sent id ${clientId} as the pet's id.`,
        exchange,
      )
    },
  },
  ...negativeBodies('createPet').map(
    ({ description, fault }, index): Check => ({
      group,
      name: `refuses a body ${description} with a 4xx Error`,
      writes: true,
      run: async ({ send, fixtures }) => {
        // Its name is its own, so a pet stored from it anyway is traced to it (refusal-side-effects.ts).
        const text = `${fixtures.runId} refused ${index}`
        const { body } = negativeBodies('createPet', text)[index] as { body: string }
        await send('createPet', { intent: 'invalid', fault, body })
      },
    }),
  ),
]
