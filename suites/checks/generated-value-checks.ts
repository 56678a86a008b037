// Checks over values generated from the schemas: valid ones round-trip exactly, near-misses are refused.
import { integerFromText, stringifyExactJson } from '../../contract/exact-json.ts'
import type { NewPet, Pet } from '../../contract/types.ts'
import {
  bodyOf,
  type Check,
  CheckSkipped,
  changedValue,
  createPetStep,
  differences,
  ensure,
} from '../engine/index.ts'
import { jsonOf } from '../judging/index.ts'
import { awkwardBodies, nearMissPathIds, nearMissQueries, validBodies } from '../values/index.ts'
import { refusingValidValue } from './valid-value-refused.ts'

const group = 'values'

/**
 * Valid values across each schema's range (generated from the contract): each create must come back exactly
 * as sent, from the 201, by id, and in the list under its filter; refusing one is a failure naming it.
 */
const roundTrips: Check[] = validBodies('createPet').map(({ label, value, ifRefused, field }) => ({
  group,
  name: `takes ${label} and gives it back unchanged (201, by id, in its filtered list)`,
  writes: true,
  async run(context) {
    // The name carries the run's tag (docs/conformance.md, Cleaning up) unless it is the value under test.
    const sent = (label.startsWith('name ')
      ? value
      : { ...value, name: `${context.fixtures.runId} value` }) as unknown as NewPet
    if (ifRefused !== undefined && context.target.prismUrl !== undefined) throw new CheckSkipped(throughPrism)
    // A refusal of the value under test is judged once, per field; of a body with no value under test, as
    // any refused create.
    const sender =
      field === undefined ? context : refusingValidValue(context, { field, label, advice: ifRefused ?? '' })
    const { pet, exchange } = await createPetStep(sender, sent, ifRefused)
    const fromPost = differences(sent, pet)
    ensure(fromPost.length === 0, changedValue, `${label}: POST /pets ${fromPost.join('; ')}.`, exchange)
    // By id and in its list at once, both sent after the 201, judged in that order: what one after
    // the other would find, in one round trip less.
    const status = sent.status ?? undefined
    const [found, listing] = await Promise.all([
      context.send('getPet', { intent: 'valid', path: { petId: pet.id } }),
      settled(context.listAfterWrites({ ...(status ? { status } : {}), limit: 100 })),
    ])
    const served = bodyOf<Pet>(found, { rule: 'lost-write', where: 'stored pets can be read back' }, 200)
    const byId = [
      ...(served.id === pet.id ? [] : [`id ${pet.id} came back as ${stringifyExactJson(served.id)}`]),
      ...differences(sent, served),
    ]
    ensure(byId.length === 0, changedValue, `${label}: GET /pets/${pet.id} ${byId.join('; ')}.`, found)
    // Under its status when it was sent with one; else the unfiltered page (where it may not fit).
    const { listed, pets } = listing()
    const inList = pets.find((candidate) => candidate.id === pet.id)
    if (!inList) {
      ensure(
        pets.length + (listed.setAside ?? 0) >= 100,
        { rule: 'lost-write', where: 'stored pets can be read back' },
        `${label}: pet ${pet.id} is missing from GET /pets?${status ? `status=${status}&` : ''}limit=100 (${pets.length} pets listed).`,
        listed,
      )
      return
    }
    const fromList = differences(sent, inList)
    ensure(fromList.length === 0, changedValue, `${label}: listed ${fromList.join('; ')}.`, listed)
  },
}))

/** A promise whose failure waits to be asked for: judged after what comes before it, not when it lands. */
function settled<T>(pending: Promise<T>): Promise<() => T> {
  return pending.then(
    (value) => () => value,
    (error: unknown) => () => {
      throw error
    },
  )
}

// Prism's proxy re-serialises bodies through doubles: every read of such a pet would come back rounded.
const throughPrism =
  'Not checked through Prism: its proxy re-serialises JSON through doubles, so int64 values beyond 2^53 come back rounded whatever the server stores. Run without --via-prism to check them.'

/** Near-miss query values (an enum in another case, empty values): refused with a 4xx Error. */
const nearMissQueryChecks: Check[] = nearMissQueries('listPets').map(({ label, query }) => ({
  group,
  name: `refuses ${label} with a 4xx Error`,
  run: async ({ send }) => {
    const name = /^([^=]+)=/.exec(query)?.[1] ?? 'query'
    await send('listPets', { intent: 'invalid', fault: `query ${decodeURIComponent(name)}`, query })
  },
}))

/** Near-miss path ids: invalid ones refused with a 4xx; ids no pet can have (0, negative) not served as a pet. */
const nearMissIdChecks: Check[] = nearMissPathIds('getPet').map(({ label, pathId, expect }) => ({
  group,
  name: expect === 'invalid' ? `refuses ${label} with a 4xx Error` : `serves no pet for ${label}`,
  run: async ({ send }) => {
    if (expect === 'invalid') {
      await send('getPet', { intent: 'invalid', fault: 'path petId', rawPath: `/pets/${pathId}` })
      return
    }
    const answer = await send('getPet', { intent: 'no-such-pet', rawPath: `/pets/${pathId}` })
    if (answer.response.status < 200 || answer.response.status > 299) return
    const id = integerFromText(decodeURIComponent(pathId))
    // The purpose first: a 2xx is acceptable only as the pet with that very id, whatever its body's faults.
    const served = jsonOf(answer) as Partial<Pet> | undefined
    ensure(
      served?.id === id,
      { rule: 'wrong-status', where: 'getPet unknown id' },
      `GET /pets/${pathId} (${label}) answered ${answer.response.status} with ${answer.response.body.length > 200 ? `${answer.response.body.slice(0, 200)}…` : answer.response.body}; no pet has that id, so 404.`,
      answer,
    )
  },
}))

/**
 * Valid bodies awkward for a server (lone surrogates, NUL, combining marks, a key given twice): created and
 * given back exactly (send.ts judges the 201's echo); a lone surrogate or a repeated name may be refused with
 * a 4xx Error, and refusing NUL or combining marks is a valid value refused; a 5xx fails.
 */
const awkwardBodyChecks: Check[] = awkwardBodies('createPet').map(({ label, field, refusable }, index) => ({
  group: 'createPet',
  name: refusable
    ? `takes a body with ${label} and gives it back exactly, or refuses it with a 4xx Error; never a 5xx`
    : `takes a body with ${label} and gives it back exactly`,
  writes: true,
  async run(context) {
    const { fixtures, recorder } = context
    const { body } = awkwardBodies('createPet', fixtures.runId)[index] as { body: string }
    if (!refusable) {
      const advice =
        'Accept it, or state the rule in the contract (for example a `pattern`), so clients know it.'
      await refusingValidValue(context, { field, label, advice }).send('createPet', { intent: 'valid', body })
      return
    }
    const answer = await context.send('createPet', { intent: 'valid-or-refused', body })
    if (answer.response.status >= 400 && answer.response.status <= 499)
      recorder.notes.push(
        `POST /pets refused a body with ${label} (${answer.response.status}); refusing it is allowed.`,
      )
  },
}))

export const generatedValueChecks: Check[] = [
  ...roundTrips,
  ...awkwardBodyChecks,
  ...nearMissQueryChecks,
  ...nearMissIdChecks,
]
