// After the run's refused creates: no pet any of them named is listed (refusal-side-effect).
import type { Pet } from '../../contract/types.ts'
import { bodyOf, type Check, ensure } from '../engine/index.ts'
import { recordOf } from '../judging/index.ts'
import { statuses } from './contract-values.ts'

/** What a list a check only reads to look for other pets must be: 200 with a bare array of Pet. */
const listAnswers = { rule: 'wrong-status', where: 'listPets answers a valid request' } as const

/**
 * Every refused create carried a name of its own (the run's id, then what it was), so a pet listed under
 * that name was stored by the refusal itself, whatever the other checks created meanwhile: concurrency
 * cannot make a verdict. Looked for once every other check has finished, on the first page of the list
 * and of each status filter (the contract pages by `limit` alone, at most 100): 4 requests for the run's
 * ~45 refusals. A pet stored beyond those pages is not seen, and not claimed absent.
 */
export const refusedCreatesStoreNothing: Check = {
  group: 'createPet',
  name: 'a refused create stores nothing: no pet named as a refused body is listed afterwards',
  writes: true,
  async run({ send, fixtures, recorder }) {
    const { byName, accepted } = fixtures.refused
    if (byName.size === 0) return
    const queries = [{ limit: 100 }, ...statuses().map((status) => ({ status, limit: 100 }))]
    const pages = await Promise.all(
      queries.map(async (query) => {
        const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()
        // Read only to look for the refused names: what else the page shows is the other checks' to judge.
        const listed = await send('listPets', { intent: 'valid', query: search, unreported: true })
        return { search, pets: bodyOf<Pet[]>(listed, listAnswers, 200) }
      }),
    )
    const stored = new Map<string, { id: unknown; search: string }>()
    for (const { search, pets } of pages)
      for (const pet of pets)
        if (typeof pet.name === 'string' && byName.has(pet.name) && !accepted.has(pet.name))
          stored.set(pet.name, { id: pet.id, search })
    const [first] = stored
    if (!first) return
    // The refusals it blames are part of its evidence: an answer read on a connection later found desynced
    // may have been another request's, and the report sets aside a check that read one. Their own
    // violations were already their checks' to report.
    for (const name of stored.keys()) {
      const refused = byName.get(name)
      if (!refused) continue
      const { affectedBy: _, ...record } = recordOf(refused)
      recorder.exchanges.push({ ...record, violations: [] })
    }
    const [name, { id, search }] = first
    const refusal = byName.get(name)
    const others = stored.size > 1 ? ` ${stored.size - 1} more refused creates were stored too.` : ''
    ensure(
      false,
      { rule: 'refusal-side-effect', where: 'createPet refused writes', operation: 'createPet' },
      `POST /pets answered ${refusal?.response.status} to a body named "${name}", yet GET /pets?${search} lists pet ${String(id)} with that name: the refused create stored it.${others}`,
      refusal,
    )
  },
}
