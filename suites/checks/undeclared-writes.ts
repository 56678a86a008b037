// Checks POST, PUT, PATCH and DELETE where the contract does not declare them: refused, and nothing changed.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import { contract } from '../../contract/index.ts'
import type { NewPet, Pet } from '../../contract/types.ts'
import { type Check, type CheckContext, createPetStep, differences } from '../engine/index.ts'
import { type Exchange, jsonOf } from '../judging/index.ts'
import { keepAllowPromise } from './allow-promises.ts'
import {
  type DeclaredPath,
  declaredPaths,
  flag,
  judgeRefusal,
  sendUndeclared,
  writeMethods,
} from './undeclared-methods.ts'

/** What the run last saw of its witness pet: served as `pet`, or gone. */
type Seen = { id: Pet['id']; pet: NewPet | undefined }

const changesData = 'methods the contract does not declare change data'

/**
 * Every write method (`writeMethods`) each path leaves undeclared, first without the key, then with it,
 * against a pet this check created for the purpose (the witness), whose id fills `{petId}`. Bodies are a
 * whole NewPet naming the method, so a server that applies one shows which.
 *
 * - **changes data** (contract, `undeclared-write`): the API's own reads show the witness changed or gone,
 *   or a pet the answer names created. The contract offers one write, createPet; anything else that changes
 *   the store is an operation nobody declared, outside every check the declared ones have. Both passes go
 *   at once and the witness is read once after; a server that answered any with a 2xx or 3xx, or whose
 *   witness changed, is sent them again one at a time, the witness read after every answer that was not a
 *   refusal and once after each pass for refusals that still acted;
 * - **a 2xx without the key** (contract, `auth`): every operation requires the key;
 * - **a 2xx or 3xx with the key that changed nothing** (policy, `unsupported-method`): the contract does
 *   not say what an undeclared method gets, and RFC 9110 §15.5.6 refuses it with 405;
 * - refusals: 401, 404, 405 (with Allow) and 501 are all honest answers (see `judgeRefusal`).
 *
 * It sends them after every other check, so a server that wipes its store on `DELETE /pets` destroys nothing
 * another check still reads; its witness is created while the last of them run. Not in read-only mode.
 */
export const undeclaredWrites: Check = {
  group: 'security',
  name: 'POST, PUT, PATCH and DELETE where the contract does not declare them, without and with the key: refused, nothing changed',
  writes: true,
  async run(context) {
    const witnessOf = async (): Promise<Seen> => {
      const sent: NewPet = {
        name: `${context.fixtures.runId} undeclared-method witness`,
        categoryId: 6,
        status: 'pending',
      }
      const { pet } = await createPetStep(context, sent)
      // Served once before the pass, or nothing the pass is followed by can blame it: a server that does not
      // serve a pet it just created (a lagging replica) has lost a write, which other checks report, and
      // a pass sent at once is over before such a server serves the witness.
      const read = await context.send('getPet', { intent: 'valid', path: { petId: String(pet.id) } })
      return { id: pet.id, pet: read.response.status === 200 ? sent : undefined }
    }
    // Every write method each declared path does not declare: one pass without the key, one with it.
    const pass = declaredPaths.flatMap((declared) =>
      writeMethods
        .filter((method) => !declared.declared.includes(method))
        .map((method) => ({ declared, method })),
    )
    const how = (keyed: boolean) => (keyed ? 'with a valid key' : 'without a key')
    const bodyOf = (method: string, keyed: boolean): NewPet => ({
      name: `${context.fixtures.runId} sent by ${method} ${how(keyed)}`,
      categoryId: 7,
      status: 'sold',
    })
    const send = (declared: DeclaredPath, method: string, keyed: boolean) =>
      sendUndeclared(context, declared, method, seen.id, {
        ...(keyed ? {} : { authorization: null }),
        ...(method === 'DELETE' ? {} : { body: stringifyExactJson(bodyOf(method, keyed)) }),
      })
    // Made while the last checks run (it destroys nothing they read); the passes wait for them to finish.
    let seen = await witnessOf()
    if (seen.pet === undefined) seen = await witnessOf()
    await context.stageBegun
    // Both passes at once, then one read of the witness: a server that refuses every one and changed
    // nothing (what the contract expects) is judged from these answers, as if sent one after another.
    // Any other is sent the passes again one at a time, so that each read of the witness shows what one
    // method did, or what one pass of refusals did.
    const both = [false, true].flatMap((keyed) => pass.map((one) => ({ ...one, keyed })))
    const atOnce = await Promise.all(both.map(({ declared, method, keyed }) => send(declared, method, keyed)))
    const allRefused = seen.pet !== undefined && atOnce.every((exchange) => exchange.response.status >= 400)
    const change = await changeTo(context, seen)
    if (allRefused && !change) {
      for (const [index, { declared, keyed }] of both.entries()) {
        const exchange = atOnce[index] as Exchange
        if (!keyed) continue
        keepAllowPromise(context, exchange, declared)
        judgeRefusal(context, exchange, declared)
      }
      return
    }
    if (change) seen = change.now
    for (const keyed of [false, true]) {
      if (seen.pet === undefined) seen = await witnessOf()
      const refusals: Exchange[] = []
      let acted = false
      for (const { declared, method } of pass) {
        const sent = bodyOf(method, keyed)
        const exchange = await send(declared, method, keyed)
        const { status } = exchange.response
        if (keyed) keepAllowPromise(context, exchange, declared)
        if (status >= 400) {
          if (keyed) judgeRefusal(context, exchange, declared)
          refusals.push(exchange)
          continue
        }
        if (!keyed && status < 300)
          flag(
            exchange,
            'auth',
            'methods the contract does not declare are served without a key',
            `${method} ${declared.path} without a key answered ${status}; every operation requires the API key, and the contract declares no ${method} there: it must be refused (401, or 404/405).`,
            '/components/securitySchemes/bearerAuth',
          )
        const change = (await changeTo(context, seen)) ?? (await createdBy(context, exchange, sent, seen))
        if (change) {
          acted = true
          seen = change.now
          flag(
            exchange,
            'undeclared-write',
            changesData,
            `${method} ${declared.path} ${how(keyed)} answered ${status}, and ${change.what}. The contract declares no ${method} there; the only write it offers is createPet.`,
          )
        } else if (keyed)
          flag(
            exchange,
            'unsupported-method',
            // One text for every path: a router that ignores methods does so everywhere, one defect.
            'methods the contract does not declare are served',
            `${method} ${declared.path} answered ${status}; the contract declares no such operation there, so it must be refused (405 with Allow, RFC 9110 §15.5.6).`,
          )
      }
      // A refusal may still have acted (a handler that writes, then fails): one more read after the pass.
      if (acted || refusals.length === 0) continue
      const change = await changeTo(context, seen)
      if (!change) continue
      seen = change.now
      const methods = refusals.map(({ request }) => `${request.method} ${new URL(request.url).pathname}`)
      flag(
        refusals.at(-1) as Exchange,
        'undeclared-write',
        changesData,
        `Refused ${how(keyed)} (${methods.join(', ')}), yet ${change.what}: one of them changed the store. The contract declares none of them; the only write it offers is createPet.`,
      )
    }
  },
}

/** Reads the witness back; what changed since it was last seen, if anything (a 404 after a 200: gone). */
async function changeTo(
  context: Pick<CheckContext, 'send'>,
  seen: Seen,
): Promise<{ what: string; now: Seen } | undefined> {
  if (seen.pet === undefined) return undefined
  const read = await context.send('getPet', { intent: 'valid', path: { petId: String(seen.id) } })
  const { status } = read.response
  const where = `GET /pets/${String(seen.id)}`
  if (status === 404)
    return {
      what: `pet ${String(seen.id)}, created by this run, is gone (${where} answers 404)`,
      now: { ...seen, pet: undefined },
    }
  if (status !== 200 || !read.bodyUsable) return undefined
  const served = jsonOf(read) as Pet
  const changed = differences(seen.pet, served)
  if (changed.length === 0) return undefined
  const now: NewPet = {
    name: served.name,
    categoryId: served.categoryId,
    ...(served.status ? { status: served.status } : {}),
  }
  return {
    what: `pet ${String(seen.id)}, created by this run, changed (${where}: ${changed.join('; ')})`,
    now: { ...seen, pet: now },
  }
}

/** A pet the answer names, holding what was sent and served by its id: created by a method nobody declared. */
async function createdBy(
  context: Pick<CheckContext, 'send'>,
  exchange: Exchange,
  sent: NewPet,
  seen: Seen,
): Promise<{ what: string; now: Seen } | undefined> {
  if (!exchange.bodyUsable) return undefined
  const named = jsonOf(exchange)
  if (!contract.validateSchema('Pet', named).ok) return undefined
  const id = (named as Pet).id
  const read = await context.send('getPet', { intent: 'valid', path: { petId: String(id) } })
  if (read.response.status !== 200 || !read.bodyUsable) return undefined
  if (differences(sent, jsonOf(read) as Pet).length > 0) return undefined
  return {
    what: `pet ${String(id)} was created with what it was sent (GET /pets/${String(id)} serves it)`,
    now: seen,
  }
}
