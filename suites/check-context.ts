import { randomBytes } from 'node:crypto'
import type { Pet, PetStatus } from '../contract/types.ts'
import { CheckFailure, type Exchange } from './exchange.ts'
import { type Recorder, type SendOptions, send } from './send.ts'
import type { ConformanceTarget } from './target.ts'

/** A check that cannot run against this target (say, read-only with no pets); reported as skipped. */
export class CheckSkipped extends Error {
  override name = 'CheckSkipped'
}

/** One conformance check: a name a person can act on, and what it does. */
export interface Check {
  /** The group it reports under: an operation id, `authentication`, `stateful links`. */
  group: string
  name: string
  /** Creates pets: left out with --read-only. */
  writes?: boolean
  run(context: CheckContext): Promise<void>
}

export interface CheckContext {
  target: ConformanceTarget
  recorder: Recorder
  send(operationId: string, method: string, path: string, options: SendOptions): Promise<Exchange>
  fixtures: Fixtures
  warn(message: string): void
}

/** Data several checks need, made once per run and shared (checks run concurrently). */
export interface Fixtures {
  /** A unique prefix for names this run creates, so a person can find them on the server. */
  runId: string
  /** One created pet for each status, and one created without status (write mode). */
  createdPets(): Promise<{ byStatus: Record<PetStatus, Pet>; withoutStatus: Pet }>
  /** A pet that exists: a created one, or in read-only mode the first one listed. */
  somePet(): Promise<Pet>
  /** Makes sure the server holds at least `count` pets (creating them if allowed), and says whether it does. */
  atLeast(count: number): Promise<boolean>
}

/** The shared state of one run: target, fixtures and the coverage seen by every check. */
export interface RunState {
  target: ConformanceTarget
  fixtures: Fixtures
  seen: Set<string>
  /** Declared pairs this target gives no way to produce (say, getPet 200 read-only with no pets). */
  excused: Set<string>
}

export function createRunState(target: ConformanceTarget): RunState {
  const seen = new Set<string>()
  const excused = new Set<string>()
  const fixtureRecorder: Recorder = { exchanges: [], warnings: [], seen }
  const runId = `conformance-${randomBytes(3).toString('hex')}`
  const sendValid = (operationId: string, method: string, path: string, body?: string) =>
    send(target, fixtureRecorder, operationId, method, path, {
      intent: 'valid',
      ...(body === undefined ? {} : { body }),
    })
  const create = async (name: string, status?: PetStatus): Promise<Pet> => {
    const exchange = await sendValid(
      'createPet',
      'POST',
      '/pets',
      JSON.stringify({ name, categoryId: 1, ...(status ? { status } : {}) }),
    )
    if (exchange.response.status !== 201) {
      throw new CheckFailure(
        `Could not create the data this check needs: POST /pets answered ${exchange.response.status}.`,
        [exchange],
      )
    }
    return JSON.parse(exchange.response.body) as Pet
  }
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined
    return () => {
      made ??= make()
      return made
    }
  }
  const createdPets = once(async () => {
    const [available, pending, sold, withoutStatus] = await Promise.all([
      create(`${runId} available`, 'available'),
      create(`${runId} pending`, 'pending'),
      create(`${runId} sold`, 'sold'),
      create(`${runId} without status`),
    ])
    return { byStatus: { available, pending, sold }, withoutStatus }
  })
  const countUpTo100 = async () => {
    const exchange = await sendValid('listPets', 'GET', '/pets?limit=100')
    return (JSON.parse(exchange.response.body) as Pet[]).length
  }
  let growing: Promise<boolean> | undefined
  const fixtures: Fixtures = {
    runId,
    createdPets,
    somePet: once(async () => {
      if (!target.readOnly) return (await createdPets()).byStatus.available
      const exchange = await sendValid('listPets', 'GET', '/pets?limit=1')
      const [pet] = JSON.parse(exchange.response.body) as Pet[]
      if (!pet) {
        excused.add('getPet 200')
        throw new CheckSkipped('The server lists no pets, and --read-only forbids creating one.')
      }
      return pet
    }),
    async atLeast(count) {
      // One grower at a time, so concurrent checks do not each create the same pets.
      const previous = growing ?? Promise.resolve(true)
      growing = previous.then(async () => {
        const have = await countUpTo100()
        if (have >= count) return true
        if (target.readOnly) return false
        for (let index = have; index < count; index++) await create(`${runId} filler ${index}`, 'pending')
        return true
      })
      return growing
    },
  }
  return { target, fixtures, seen, excused }
}

/** The context one check runs in: its own record of traffic and warnings, the run's shared fixtures. */
export function createCheckContext(run: RunState): CheckContext {
  const recorder: Recorder = { exchanges: [], warnings: [], seen: run.seen }
  return {
    target: run.target,
    recorder,
    fixtures: run.fixtures,
    send: (operationId, method, path, options) =>
      send(run.target, recorder, operationId, method, path, options),
    warn: (message) => recorder.warnings.push(message),
  }
}

/** Creates a pet through the API as a check step: the answer must be 201, and its body is the pet. */
export async function createPetStep(
  context: CheckContext,
  body: object,
): Promise<{ pet: Pet; exchange: Exchange }> {
  const exchange = await context.send('createPet', 'POST', '/pets', {
    intent: 'valid',
    body: JSON.stringify(body),
  })
  if (exchange.response.status !== 201) {
    throw new CheckFailure(`POST /pets answered ${exchange.response.status}, expected 201.`, [exchange])
  }
  return { pet: bodyOf<Pet>(exchange), exchange }
}

/** Parses an exchange's JSON body (the response checks already proved it parses where one is declared). */
export function bodyOf<T>(exchange: Exchange): T {
  return JSON.parse(exchange.response.body) as T
}
