// What a check is and runs in: the Check type, the run's shared state and fixtures, and the common steps.
import { randomBytes } from 'node:crypto'
import { stringifyExactJson } from '../../contract/exact-json.ts'
import { contract } from '../../contract/index.ts'
import type { NewPet, Pet, PetStatus } from '../../contract/types.ts'
import type { RuleId, SendParams, Violation } from '../judging/index.ts'
import { describeExchange, type Exchange, jsonOf, type Recorder, recordOf } from '../judging/index.ts'
import { CheckBlocked, CheckFailure, CheckSkipped, ensure } from './check-outcomes.ts'
import { createdIdOf } from './created-ids.ts'
import { tooLargeViolation } from './judge-exchange.ts'
import { noteCreate, type RefusedCreates } from './refused-creates.ts'
import { send } from './send.ts'
import { censusQueries, countTagged, reusablePet, type TaggedCensus } from './tagged-pets.ts'
import type { ConformanceTarget } from './target.ts'
import type { Transport } from './transport.ts'

/** One conformance check: its purpose, in words a person can act on, and what it does. */
export interface Check {
  /** The group it reports under: an operation id, `security`, `stateful`. */
  group: string
  /** The check's purpose; it heads every report of the check. */
  name: string
  /** Creates pets: not run with --read-only, and reported as "not checked (read-only)". */
  writes?: boolean
  run(context: CheckContext): Promise<void>
}

export interface CheckContext {
  target: ConformanceTarget
  recorder: Recorder
  /** Sends a request for an operation of the contract; method and path come from the contract. */
  send(operationId: string, params: SendParams): Promise<Exchange>
  fixtures: Fixtures
  warn(message: string): void
  /**
   * listPets' step, sent after every write this check made was answered; checks that ask for the same
   * query before it leaves share the request (each of their writes was answered by then too).
   */
  listAfterWrites(query: Record<string, string | number>): Promise<{ listed: Exchange; pets: Pet[] }>
  /**
   * The answers with the key to methods sent to each path of the contract that does not declare them (HEAD,
   * OPTIONS, the write methods), by path, for the whole run: what an `Allow` one of them sends is held to.
   */
  methodAnswers: Map<string, MethodAnswer[]>
  /**
   * Settles once the check's stage has begun: what came before it has finished. A check of a later stage
   * is started early and may prepare (create what it needs) before awaiting this; already settled for the
   * checks of the first stage.
   */
  stageBegun: Promise<void>
  /**
   * Says the check will write nothing more (it ends reading): the checks that look back over the run's
   * writes need not wait for its last reads. Its end says so too.
   */
  wroteLast(): void
}

/** How a path answered a method it does not declare, with the key: its status and its `Allow`, if any. */
interface MethodAnswer {
  method: string
  status: number
  allow?: string
}

/** A pet this run created: what it sent, and what the server answered (its id is the server's). */
export interface CreatedPet {
  sent: NewPet
  pet: Pet
  /** The 201 that created it, whose headers (Location) a check may try. */
  exchange?: Exchange
}

/** Data several checks need, made once per run and shared (checks run concurrently). */
interface Fixtures {
  /** A unique prefix for names this run creates, so a person can find them on the server. */
  runId: string
  /** One created pet for each status, and one created without status (write mode). */
  createdPets(): Promise<{ byStatus: Record<PetStatus, CreatedPet>; withoutStatus: CreatedPet }>
  /**
   * A pet that exists, for checks that only read it: one an earlier run left (reusedPet), else one this run
   * created, or in read-only mode the first one listed.
   */
  somePet(): Promise<Pet>
  /** The tagged pets the run saw on the target before it created any (every create waits for it). */
  census(): Promise<TaggedCensus>
  /** The pet an earlier run created and tagged that reading checks reuse, as listed; none on a first run. */
  reusedPet(): Promise<Pet | undefined>
  /** Makes sure the server holds at least `count` pets (creating them if allowed), and says whether it does. */
  atLeast(count: number): Promise<boolean>
  /** The creates the server refused so far, by the run-tagged name each carried (refusal side effects). */
  refused: RefusedCreates
}

/** The shared state of one run: where it sends, its fixtures, and what every check saw. */
export interface RunState {
  target: ConformanceTarget
  transport: Transport
  fixtures: Fixtures
  seen: Set<string>
  /** Declared pairs this target gives no way to produce (say, getPet 200 read-only with no pets). */
  excused: Set<string>
  /** Pets this run created on the target (the API cannot delete them), and their ids. */
  created: Created
  /** What every create waits for: the census, and the --max-created-total guard. */
  beforeCreate(): Promise<void>
  /** Record findings a check already reports: other checks that share the read are affected by them. */
  claimedRecords: WeakSet<Violation>
  /** The list request about to leave for each query, shared by the checks waiting for it. */
  nextLists: Map<string, Promise<Exchange>>
  /** Answers with the key to methods a path does not declare, by path (`CheckContext.methodAnswers`). */
  methodAnswers: Map<string, MethodAnswer[]>
}

/** Everything a run needs to start: the target and the bounds of each request. */
export function createRunState(target: ConformanceTarget): RunState {
  const seen = new Set<string>()
  const excused = new Set<string>()
  const runId = `${target.namePrefix}-${randomBytes(3).toString('hex')}`
  const refused: RefusedCreates = { runId, byName: new Map(), accepted: new Set() }
  const created: Created = { count: 0, inFlight: 0, ids: new Set(), reused: new Set(), refused }
  const transport: Transport = {
    target,
    limits: {
      requestTimeoutMs: target.requestTimeoutMs,
      maxResponseBytes: target.maxResponseBytes,
      runDeadline: target.runDeadline,
      ...(target.network ? { network: target.network } : {}),
    },
    failuresInARow: 0,
    ...(target.overCap ? { down: tooLargeViolation('listPets', target.overCap) } : {}),
    storedWrong: new Map(),
    createdIds: new Set(),
    creates: new Set(),
    answers: 0,
    firstSuccess: new Map(),
  }
  const fixtureRecorder: Recorder = { exchanges: [], warnings: [], advice: [], notes: [], seen }
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined
    return () => {
      made ??= make()
      return made
    }
  }
  const census = once(async () => {
    created.census = await takeCensus(
      { send: (operationId, params) => send(transport, fixtureRecorder, operationId, params) },
      target.namePrefix,
    )
    return created.census
  })
  // Every create waits for the census, so it sees the target as earlier runs left it, however the checks
  // are scheduled; past --max-created-total, nothing is created.
  const beforeCreate = async () => {
    const { tagged } = await census()
    const max = target.maxCreatedTotal
    if (max === undefined || tagged.length <= max) return
    throw new CheckSkipped(
      `--max-created-total ${max}: the target already holds ${tagged.length} pets named "${target.namePrefix}-…" by earlier runs; nothing is created until they are cleaned up.`,
    )
  }
  const fixtureContext = {
    recorder: fixtureRecorder,
    send: countingSend(transport, fixtureRecorder, created, { beforeCreate, census }),
  }

  const create = (sent: NewPet) => blocking(() => createPetStep(fixtureContext, sent))
  const reusedPet = once(async () => {
    if (target.readOnly) return undefined
    const pet = reusablePet(await census(), runId)
    if (pet) created.reused.add(String(pet.id))
    return pet
  })
  const createdPets = once(async () => {
    const [available, pending, sold, withoutStatus] = await Promise.all([
      create({ name: `${runId} available`, categoryId: 1, status: 'available' }),
      create({ name: `${runId} pending`, categoryId: 2, status: 'pending' }),
      create({ name: `${runId} sold`, categoryId: 3, status: 'sold' }),
      create({ name: `${runId} without status`, categoryId: 4 }),
    ])
    // Pets that share an id cannot be read back one by one: every check that reads them is blocked.
    const ids = [available, pending, sold, withoutStatus].map(({ pet }) => pet.id)
    if (new Set(ids).size !== ids.length)
      throw new CheckBlocked(duplicateIds(ids, withoutStatus.exchange), withoutStatus.exchange)
    return { byStatus: { available, pending, sold }, withoutStatus }
  })
  const list = async (query: Record<string, string | number>) => (await listPets(fixtureContext, query)).pets
  let growing: Promise<boolean> | undefined
  let fillers = 0
  const fixtures: Fixtures = {
    runId,
    refused,
    createdPets,
    census,
    reusedPet,
    somePet: once(async () => {
      if (!target.readOnly) return (await reusedPet()) ?? (await createdPets()).byStatus.available.pet
      const [pet] = await blocking(() => list({ limit: 1 }))
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
        // Counted from the census, taken before any create, and the fillers made since: the same server
        // gets the same fillers however the checks' creates interleave. Without a census, from a list.
        const { listed, unknown } = await census()
        const have = unknown ? (await blocking(() => list({ limit: 100 }))).length : listed + fillers
        if (have >= count) return true
        if (target.readOnly) return false
        for (let index = have; index < count; index++) {
          await create({ name: `${runId} filler ${index}`, categoryId: 5, status: 'pending' })
          fillers++
        }
        return true
      })
      return growing
    },
  }
  return {
    target,
    transport,
    fixtures,
    seen,
    excused,
    created,
    beforeCreate,
    claimedRecords: new WeakSet(),
    nextLists: new Map(),
    methodAnswers: new Map(),
  }
}

/** A shared step: whatever it finds wrong blocks the checks that need it, instead of failing each. */
async function blocking<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (error) {
    if (error instanceof CheckFailure) throw new CheckBlocked(error.violation, error.exchange)
    throw error
  }
}

/** What the run's creates did: how many pets it left on the target, and the ids the server gave them. */
interface Created {
  count: number
  /** Creates sent and not yet answered (for --max-writes). */
  inFlight: number
  /** Set once --max-writes skipped a create. */
  capped?: boolean
  ids: Set<unknown>
  /** Ids of the pets earlier runs left that reading checks reused instead of creating their own. */
  reused: Set<string>
  /** The tagged pets seen before any create, once counted. */
  census?: TaggedCensus
  refused: RefusedCreates
}

/**
 * Lists the first pages (unfiltered and each status) and counts the tagged pets on them. A listing that
 * fails leaves the count unknown: the checks that list judge that answer, not the census.
 */
async function takeCensus(context: Pick<CheckContext, 'send'>, namePrefix: string): Promise<TaggedCensus> {
  try {
    const pages = await Promise.all(
      censusQueries().map(async (query) => {
        const listed = await context.send('listPets', { intent: 'valid', query, unreported: true })
        const pets = bodyOf<Pet[]>(listed, listAnswers, 200)
        return { pets, length: pets.length + (listed.setAside ?? 0) }
      }),
    )
    return countTagged(pages, namePrefix)
  } catch (error) {
    if (error instanceof CheckFailure || error instanceof CheckBlocked)
      return { tagged: [], bounded: false, listed: 0, unknown: true }
    throw error
  }
}

// Every pet a run creates is counted (the report says how many it left on the target), and every id the
// server assigns is remembered: an id given out twice is a duplicate however far apart the creates were,
// which is the root cause of every later read that shows another pet.
function countingSend(
  transport: Transport,
  recorder: Recorder,
  created: Created,
  gates: { beforeCreate: () => Promise<void>; census: () => Promise<unknown> },
) {
  return async (operationId: string, params: SendParams) => {
    if (operationId === 'createPet') await gates.beforeCreate()
    // Whatever else may store something (any request but a GET: a method a path does not declare, a create
    // under another spelling or content type) waits for the census too, so that it counts only what earlier
    // runs left. Reads go at once: a check's first read, or the model's, need not wait a round trip for it.
    else if ((params.method ?? contract.operation(operationId).method) !== 'GET') await gates.census()
    const { maxWrites } = transport.target
    // Every createPet counts against --max-writes while in flight (creates run concurrently, and a broken
    // server may store what it should refuse): the cap holds whatever the server does.
    const counted = operationId === 'createPet' && maxWrites !== undefined
    if (counted && created.count + created.inFlight >= maxWrites) {
      created.capped = true
      throw new CheckSkipped(`--max-writes ${maxWrites}: this check would create a pet past the cap.`)
    }
    if (counted) created.inFlight++
    const exchange = await send(transport, recorder, operationId, params).finally(() => {
      if (counted) created.inFlight--
    })
    if (operationId === 'createPet') noteCreate(created.refused, params, exchange)
    if (operationId !== 'createPet' || exchange.response.status < 200 || exchange.response.status > 299)
      return exchange
    created.count++
    // Whatever the request meant: a server that stored an invalid body stored the run's pet.
    const id = createdIdOf(exchange)
    if (id === undefined) return exchange
    if (created.ids.has(id)) exchange.violations.unshift(duplicateIds([id, id], exchange))
    created.ids.add(id)
    return exchange
  }
}

/** The context one check runs in: its own record of traffic and warnings, the run's shared fixtures. */
export function createCheckContext(
  run: RunState,
  stageBegun = Promise.resolve(),
  wroteLast: () => void = () => {},
): CheckContext {
  const recorder: Recorder = { exchanges: [], warnings: [], advice: [], notes: [], seen: run.seen }
  return {
    stageBegun,
    wroteLast,
    target: run.target,
    recorder,
    fixtures: run.fixtures,
    send: countingSend(run.transport, recorder, run.created, {
      beforeCreate: run.beforeCreate,
      census: run.fixtures.census,
    }),
    warn: (message) => recorder.warnings.push(message),
    methodAnswers: run.methodAnswers,
    async listAfterWrites(query) {
      const key = new URLSearchParams(
        Object.entries(query).map(([name, value]) => [name, String(value)]),
      ).toString()
      let next = run.nextLists.get(key)
      if (!next) {
        // It leaves on the next turn of the event loop, with every check that asked before then.
        const shared: Recorder = { exchanges: [], warnings: [], advice: [], notes: [], seen: run.seen }
        next = new Promise<void>((leave) => setImmediate(leave)).then(() => {
          run.nextLists.delete(key)
          return send(run.transport, shared, 'listPets', { intent: 'valid', query })
        })
        run.nextLists.set(key, next)
      }
      const listed = await next
      recorder.exchanges.push(recordOf(listed))
      return { listed, pets: bodyOf<Pet[]>(listed, listAnswers, 200) }
    },
  }
}

/**
 * Creates a pet as a check step: the answer must be 201 with a Pet, and the step returns what was sent
 * beside what the server answered.
 */
export async function createPetStep(
  context: Pick<CheckContext, 'send'>,
  sent: NewPet,
  ifRefused?: string,
): Promise<CreatedPet & { exchange: Exchange }> {
  const exchange = await context.send('createPet', { intent: 'valid', body: stringifyExactJson(sent) })
  const refused = { rule: 'wrong-status', where: 'createPet refuses a valid body' } as const
  const pet = bodyOf<Pet>(exchange, refused, 201, ifRefused)
  const duplicate = exchange.violations.find((violation) => violation.rule === 'duplicate-id')
  if (duplicate) throw new CheckFailure(duplicate, exchange)
  return { sent, pet, exchange }
}

/** What a list with a valid query must be: 200 with a bare array of Pet. */
const listAnswers = { rule: 'wrong-status', where: 'listPets answers a valid request' } as const

/** Lists with a valid query: the answer must be 200 with a bare array of Pet. */
export async function listPets(
  context: Pick<CheckContext, 'send'>,
  query: Record<string, string | number>,
): Promise<{ listed: Exchange; pets: Pet[] }> {
  const listed = await context.send('listPets', { intent: 'valid', query })
  return { listed, pets: bodyOf<Pet[]>(listed, listAnswers, 200) }
}

/**
 * The exchange's JSON body, once its status is `status`. A status or body that already broke a rule of its
 * own (an undeclared status, a body off the schema) stops the check on that violation, so the root cause is
 * reported once; otherwise a wrong status fails on `expectation`.
 */
export function bodyOf<T>(
  exchange: Exchange,
  expectation: { rule: RuleId; where: string },
  status: number,
  ifWrongStatus?: string,
): T {
  const root = exchange.violations[0]
  if (exchange.response.status !== status) {
    if (root && ['server-error', 'undeclared-status', 'auth', 'no-response'].includes(root.rule))
      throw new CheckFailure(root, exchange)
    ensure(
      false,
      expectation,
      `${exchange.request.method} ${pathOf(exchange)} answered ${exchange.response.status}, expected ${status}.${ifWrongStatus ? ` ${ifWrongStatus}` : ''}`,
      exchange,
    )
  }
  if (!exchange.bodyUsable) throw new CheckFailure(root ?? unusable(exchange), exchange)
  return jsonOf(exchange) as T
}

function unusable(exchange: Exchange): Violation {
  return {
    rule: 'body-schema',
    operation: exchange.operation,
    where: `${exchange.operation} body`,
    message: `${exchange.request.method} ${pathOf(exchange)}: the body cannot be read.`,
    exchange: describeExchange(exchange),
  }
}

/** The request's path and query, without the base URL: what a person compares with the contract. */
function pathOf(exchange: Exchange): string {
  const url = new URL(exchange.request.url)
  return `${url.pathname}${url.search}`
}

/** The violation of creates answering with ids already given to other pets. */
export function duplicateIds(ids: unknown[], last?: Exchange): Violation {
  return {
    rule: 'duplicate-id',
    operation: 'createPet',
    where: 'createPet ids',
    message: `Creates returned the ids ${ids.map((id) => stringifyExactJson(id)).join(', ')}: not all different, though each pet's id is unique.`,
    ...(last ? { exchange: describeExchange(last) } : {}),
  }
}

export { changedValue, differences } from '../judging/index.ts'
