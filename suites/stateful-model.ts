import fc from 'fast-check'
import { contract } from '../contract/index.ts'
import { followReference, isRecord } from '../contract/openapi-document.ts'
import { fieldValues } from './generated-values.ts'

/** One answer of the API under test, as the model needs it. */
export interface Reply {
  status: number
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: unknown
  /** The request as a person replays it, e.g. `POST /pets {"name":"x","categoryId":1}`. */
  request: string
}

/** The three operations the model drives, over any transport (a real socket, an in-memory fake). */
export interface ModelApi {
  createPet(body: object): Promise<Reply>
  listPets(query: { limit?: number; status?: string }): Promise<Reply>
  getPet(id: number | string): Promise<Reply>
}
// An adapter that got no answer at all returns status 0: the model reports it as 'no-response'.

export interface StatefulOptions {
  /** Same seed, same command sequences. Print it in every report so a failure can be replayed. */
  seed: number
  /** How many random sequences to run (fast-check's numRuns). */
  maxExamples: number
  /** Starts every name the run creates, so a person can find the run's pets on the server. */
  namePrefix: string
  /** Longest sequence (default 30 commands; a batch counts as one). */
  maxCommands?: number
  /** With `replayPath` (from a failure), replays that failure's shrunk sequence directly. */
  path?: string
  replayPath?: string
}

/** Which rule a failure breaks, in the lead's finding vocabulary. */
export type StatefulRule =
  | 'server-error'
  | 'undeclared-status'
  | 'wrong-status'
  | 'body-schema'
  | 'error-status'
  | 'limit'
  | 'filter'
  | 'lost-write'
  | 'changed-value'
  | 'duplicate-id'
  | 'no-response'

export type StatefulResult =
  | { ok: true; seed: number; created: number }
  | {
      ok: false
      seed: number
      /** fast-check's counterexample path; with `replayPath`, pass both back to replay. */
      path: string
      replayPath: string
      /** The minimal (shrunk) sequence as requests; lines starting `‖ ` were sent concurrently. */
      replay: string[]
      message: string
      rule: StatefulRule
      /** `listPets`, `createPet` or `getPet`. */
      operation: string
      created: number
    }

/** The defaults keep a run around a second against a local server: 25 sequences of up to 30 commands. */
export const defaultStatefulOptions = { maxExamples: 25, maxCommands: 30 } as const

/** A broken promise of the contract, found by a command or the final sweep. */
export class ModelViolation extends Error {
  override name = 'ModelViolation'
  readonly rule: StatefulRule
  readonly operation: string
  constructor(rule: StatefulRule, operation: string, message: string) {
    super(message)
    this.rule = rule
    this.operation = operation
  }
}

/** A pet the run created: what was sent, and its contract fields as the 201 returned them. */
interface KnownPet {
  id: number
  sent: Record<string, unknown>
  created: Record<string, unknown>
  /** The create request, for the sweep's replay. */
  request: string
}

/** What the contract guarantees about this sequence's pets, and nothing else. */
interface Model {
  pets: KnownPet[]
  bodies: Record<string, unknown>[]
}

interface Real {
  api: ModelApi
  log: string[]
  /** Every pet created in this whole call (all sequences), for id uniqueness and the final sweep. */
  all: Map<number, KnownPet>
}

type Command = fc.AsyncCommand<Model, Real>

const petFields = Object.keys(fieldValues('createPet'))
const statuses = enumOf('#/components/schemas/PetStatus')
const limitParameter = contract.operation('listPets').parameters.find((p) => p.name === 'limit')
const limitSchema = limitParameter
  ? (followReference(contract.document, limitParameter.schemaPointer).value as {
      minimum?: number
      maximum?: number
    })
  : {}
const minLimit = limitSchema.minimum ?? 1
const maxLimit = limitSchema.maximum ?? 100
const defaultLimit = typeof limitParameter?.defaultValue === 'number' ? limitParameter.defaultValue : maxLimit

/**
 * Runs random, shrinkable sequences of creates (new bodies, bodies identical to earlier ones, repeated
 * names), lists (every filter × limit), gets of created and unknown ids, and concurrent batches of those,
 * against a model of only what the contract guarantees; then sweeps every pet the run created.
 *
 * The model assumes no order, no id shape beyond a unique safe integer, no server default for `status`,
 * nothing about extra fields, and that other clients' pets may be listed. A list must hold only matching
 * pets, at most `limit`, as a bare array; a created pet must be on a matching page that is not full.
 * @example
 * const result = await runStatefulModel(api, { seed: 42, maxExamples: 25, namePrefix: 'conformance-ab12 ' })
 * if (!result.ok) console.log(result.message, result.replay.join('\n'))
 */
export async function runStatefulModel(api: ModelApi, options: StatefulOptions): Promise<StatefulResult> {
  const all = new Map<number, KnownPet>()
  let lastFailure: { log: string[]; error: unknown } | undefined
  const property = fc.asyncProperty(
    fc.commands(commandArbitraries(options.namePrefix), {
      maxCommands: options.maxCommands ?? defaultStatefulOptions.maxCommands,
      // fast-check's default size gives ~5 commands a sequence; 'medium' ~14, up to maxCommands.
      size: 'medium',
      ...(options.replayPath === undefined ? {} : { replayPath: options.replayPath }),
    }),
    async (commands) => {
      const real: Real = { api, log: [], all }
      try {
        await fc.asyncModelRun(() => ({ model: { pets: [], bodies: [] }, real }), commands)
      } catch (error) {
        // Shrinking only moves to a failing sequence, so the last failure seen is the minimal one.
        lastFailure = { log: real.log, error }
        throw error
      }
    },
  )
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: options.maxExamples,
    ...(options.path === undefined ? {} : { path: options.path }),
  })
  if (details.failed) {
    const violation = lastFailure?.error ?? details.errorInstance
    if (!(violation instanceof ModelViolation)) {
      // Not a broken promise of the server: a bug in the model or its adapter, which must not blame the server.
      throw new Error(
        `Failed to run the stateful model: ${String(violation)} (seed ${options.seed}, path ${details.counterexamplePath}). ` +
          'This is a bug in the model or the ModelApi adapter; report it with the seed.',
        { cause: violation },
      )
    }
    const rendered = String(details.counterexample?.[0] ?? '')
    return {
      ok: false,
      seed: options.seed,
      path: details.counterexamplePath ?? '',
      replayPath: /replayPath="([^"]*)"/.exec(rendered)?.[1] ?? '',
      replay: lastFailure?.log ?? [],
      message: violation.message,
      rule: violation.rule,
      operation: violation.operation,
      created: all.size,
    }
  }
  const swept = await sweep(api, all)
  if (swept) return { ok: false, seed: options.seed, path: '', replayPath: '', created: all.size, ...swept }
  return { ok: true, seed: options.seed, created: all.size }
}

function commandArbitraries(namePrefix: string): fc.Arbitrary<Command>[] {
  const values = fieldValues('createPet')
  const pool = (field: string) => (values[field] ?? []).map((v) => v.value)
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...pool('name')), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }), weight: 1 },
  )
  const categoryId = fc.oneof(fc.constantFrom(...pool('categoryId')), fc.maxSafeInteger())
  const status = fc.option(fc.constantFrom(...statuses), { nil: undefined })
  const body = fc.record({ name, categoryId, status }).map(({ name, categoryId, status }) => ({
    name: `${namePrefix}${name}`,
    categoryId,
    ...(status === undefined ? {} : { status }),
  }))
  const limit = fc.option(
    fc.oneof(
      fc.constantFrom(minLimit, minLimit + 1, defaultLimit, maxLimit - 1, maxLimit),
      fc.integer({ min: minLimit, max: maxLimit }),
    ),
    { nil: undefined },
  )
  const query = fc.record({ limit, status: fc.option(fc.constantFrom(...statuses), { nil: undefined }) })
  const step: fc.Arbitrary<Step> = fc.oneof(
    body.map((b): Step => ({ kind: 'create', body: b })),
    fc.nat().map((index): Step => ({ kind: 'get', index })),
    query.map((q): Step => ({ kind: 'list', query: q })),
    fc.nat({ max: 999 }).map((offset): Step => ({ kind: 'unknown', offset })),
  )
  return [
    body.map((b) => new CreateCommand({ kind: 'new', body: b })),
    fc.nat().map((index) => new CreateCommand({ kind: 'repeat', index })),
    fc
      .tuple(fc.nat(), categoryId, status)
      .map(([index, id, s]) => new CreateCommand({ kind: 'same-name', index, categoryId: id, status: s })),
    query.map((q) => new ListCommand(q)),
    fc.nat().map((index) => new GetCommand(index)),
    fc.nat({ max: 999 }).map((offset) => new GetUnknownCommand(offset)),
    fc.array(step, { minLength: 2, maxLength: 6 }).map((steps) => new BatchCommand(steps)),
  ]
}

type BodySource =
  | { kind: 'new'; body: Record<string, unknown> }
  | { kind: 'repeat'; index: number }
  | { kind: 'same-name'; index: number; categoryId: unknown; status: unknown }

type Step =
  | { kind: 'create'; body: Record<string, unknown> }
  | { kind: 'get'; index: number }
  | { kind: 'list'; query: { limit?: number | undefined; status?: string | undefined } }
  | { kind: 'unknown'; offset: number }

class CreateCommand implements Command {
  readonly source: BodySource
  constructor(source: BodySource) {
    this.source = source
  }
  check = (model: Readonly<Model>) => this.source.kind === 'new' || model.bodies.length > 0
  async run(model: Model, real: Real) {
    const body = bodyFrom(this.source, model)
    const reply = await call(real, real.api.createPet(body))
    model.pets.push(expectCreated(real, body, reply))
    model.bodies.push(body)
  }
  toString = () =>
    this.source.kind === 'new'
      ? `create(${show(this.source.body)})`
      : `create(${this.source.kind} of body #${this.source.index})`
}

class ListCommand implements Command {
  readonly query: { limit?: number | undefined; status?: string | undefined }
  constructor(query: { limit?: number | undefined; status?: string | undefined }) {
    this.query = query
  }
  check = () => true
  async run(model: Model, real: Real) {
    const reply = await call(real, real.api.listPets(clean(this.query)))
    expectList(clean(this.query), reply, model.pets, byId(model.pets))
  }
  toString = () => `list(${JSON.stringify(clean(this.query))})`
}

class GetCommand implements Command {
  readonly index: number
  constructor(index: number) {
    this.index = index
  }
  check = (model: Readonly<Model>) => model.pets.length > 0
  async run(model: Model, real: Real) {
    const pet = model.pets[this.index % model.pets.length] as KnownPet
    expectPet(pet, await call(real, real.api.getPet(pet.id)))
  }
  toString = () => `get(created pet #${this.index})`
}

class GetUnknownCommand implements Command {
  readonly offset: number
  constructor(offset: number) {
    this.offset = offset
  }
  check = () => true
  async run(_: Model, real: Real) {
    const id = unknownId(real, this.offset)
    expectNotFound(id, await call(real, real.api.getPet(id)))
  }
  toString = () => `get(unknown id ${unlikelyId}-${this.offset})`
}

/**
 * Steps sent at once: only what holds under every interleaving is checked. Real concurrent requests, not
 * fc.scheduledModelRun: fast-check's scheduler reorders promise resolutions inside this process, but only
 * overlapping requests on the wire make a remote server interleave its own work (where races live).
 */
class BatchCommand implements Command {
  readonly steps: Step[]
  constructor(steps: Step[]) {
    this.steps = steps
  }
  check = () => true
  async run(model: Model, real: Real) {
    const before = [...model.pets]
    // Resolve every target before sending, so checking does not depend on the order answers arrive in.
    const plan = this.steps.map((step) =>
      step.kind === 'get' && before.length > 0
        ? { step, pet: before[step.index % before.length] as KnownPet }
        : step.kind === 'get' || step.kind === 'unknown'
          ? { step, unknown: unknownId(real, step.kind === 'unknown' ? step.offset : step.index % 1000) }
          : { step },
    )
    const replies = await Promise.all(
      plan.map(({ step, pet, unknown }) =>
        step.kind === 'create'
          ? real.api.createPet(step.body)
          : step.kind === 'list'
            ? real.api.listPets(clean(step.query))
            : real.api.getPet(pet?.id ?? (unknown as number)),
      ),
    )
    for (const reply of replies) real.log.push(`‖ ${reply.request}`)
    // Creates first, so a concurrent list that already shows a new pet is compared with it.
    plan.forEach(({ step }, index) => {
      if (step.kind !== 'create') return
      model.pets.push(expectCreated(real, step.body, replies[index] as Reply))
      model.bodies.push(step.body)
    })
    plan.forEach(({ step, pet, unknown }, index) => {
      const reply = replies[index] as Reply
      if (step.kind === 'list') expectList(clean(step.query), reply, before, byId(model.pets))
      else if (pet) expectPet(pet, reply)
      else if (unknown !== undefined) expectNotFound(unknown, reply)
    })
  }
  toString = () => `batch[${this.steps.map((s) => s.kind).join(', ')}]`
}

async function call(real: Real, pending: Promise<Reply>): Promise<Reply> {
  const reply = await pending
  real.log.push(reply.request)
  return reply
}

function bodyFrom(source: BodySource, model: Readonly<Model>): Record<string, unknown> {
  if (source.kind === 'new') return source.body
  const earlier = model.bodies[source.index % model.bodies.length] as Record<string, unknown>
  if (source.kind === 'repeat') return { ...earlier }
  return {
    name: earlier.name,
    categoryId: source.categoryId,
    ...(source.status === undefined ? {} : { status: source.status }),
  }
}

function expectCreated(real: Real, body: Record<string, unknown>, reply: Reply): KnownPet {
  const what = `${reply.request}`
  if (reply.status !== 201) throw unexpectedStatus('createPet', reply, 201, `a valid body: ${clip(what)}`)
  const schema = contract.validateResponseBody('createPet', 201, reply.body)
  if (!schema.ok) throw bodySchema('createPet', reply, schema.errors.map((e) => e.message).join('; '))
  const pet = reply.body as Record<string, unknown>
  for (const field of petFields) {
    if (!(field in body)) continue
    if (!sameValue(pet[field], body[field])) {
      throw new ModelViolation(
        'changed-value',
        'createPet',
        `POST /pets returned ${field} ${show(pet[field])} for ${field} ${show(body[field])} (sent: ${clip(what)}).`,
      )
    }
  }
  const id = pet.id as number
  const earlier = real.all.get(id)
  if (earlier) {
    throw new ModelViolation(
      'duplicate-id',
      'createPet',
      `POST /pets gave id ${id} to a new pet; it already belongs to the pet created by ${clip(earlier.request)}.`,
    )
  }
  const known: KnownPet = { id, sent: body, created: contractFields(pet), request: reply.request }
  real.all.set(id, known)
  return known
}

function expectPet(pet: KnownPet, reply: Reply): void {
  if (reply.status === 404) {
    throw new ModelViolation(
      'lost-write',
      'getPet',
      `GET /pets/${pet.id} answered 404 for the pet created by ${clip(pet.request)}.`,
    )
  }
  if (reply.status !== 200) throw unexpectedStatus('getPet', reply, 200, `pet ${pet.id}, which exists`)
  const schema = contract.validateResponseBody('getPet', 200, reply.body)
  if (!schema.ok) throw bodySchema('getPet', reply, schema.errors.map((e) => e.message).join('; '))
  const change = differences(pet, reply.body as Record<string, unknown>)
  if (change) throw new ModelViolation('changed-value', 'getPet', `GET /pets/${pet.id} ${change}.`)
}

function expectNotFound(id: number, reply: Reply): void {
  // A pet of someone else's that happens to have this id is no defect (the model knows only its own pets).
  if (reply.status === 200 && (reply.body as { id?: unknown } | undefined)?.id === id) return
  if (reply.status !== 404) throw unexpectedStatus('getPet', reply, 404, `id ${id}, which no pet has`)
  const schema = contract.validateResponseBody('getPet', 404, reply.body)
  if (!schema.ok) throw bodySchema('getPet', reply, schema.errors.map((e) => e.message).join('; '))
  if ((reply.body as { status?: unknown }).status !== 404) {
    throw new ModelViolation(
      'error-status',
      'getPet',
      `GET /pets/${id} 404 body says status ${JSON.stringify((reply.body as { status?: unknown }).status)}.`,
    )
  }
}

/**
 * `mustShow`: pets that must be on the page when it is not full. `compare`: pets whose listed form must
 * equal their created form (this sequence's own, so a shrunk sequence never leans on an earlier one).
 */
function expectList(
  query: { limit?: number; status?: string },
  reply: Reply,
  mustShow: readonly KnownPet[],
  compare: ReadonlyMap<number, KnownPet>,
): void {
  const what = reply.request
  if (reply.status !== 200) throw unexpectedStatus('listPets', reply, 200, 'a valid query')
  const schema = contract.validateResponseBody('listPets', 200, reply.body)
  if (!schema.ok) throw bodySchema('listPets', reply, schema.errors.map((e) => e.message).join('; '))
  const page = reply.body as Record<string, unknown>[]
  const limit = query.limit ?? defaultLimit
  if (page.length > limit)
    throw new ModelViolation(
      'limit',
      'listPets',
      `${what} returned ${page.length} pets; the limit is ${limit}.`,
    )
  if (query.status !== undefined) {
    const others = page.filter((pet) => pet.status !== query.status)
    if (others.length > 0) {
      throw new ModelViolation(
        'filter',
        'listPets',
        `${what} returned pets ${others.map((pet) => `${pet.id} (status ${JSON.stringify(pet.status)})`).join(', ')}.`,
      )
    }
  }
  const seen = new Map<number, Record<string, unknown>>()
  for (const listed of page) {
    const id = listed.id as number
    const twin = seen.get(id)
    if (twin && JSON.stringify(contractFields(twin)) !== JSON.stringify(contractFields(listed))) {
      throw new ModelViolation(
        'duplicate-id',
        'listPets',
        `${what} lists two different pets with id ${id}: ${show(twin)} and ${show(listed)}.`,
      )
    }
    seen.set(id, listed)
    const known = compare.get(id)
    const change = known && differences(known, listed)
    if (change) throw new ModelViolation('changed-value', 'listPets', `${what}: pet ${id} ${change}.`)
  }
  // The only presence rule: a matching pet must be on a page that is not full.
  if (page.length >= limit) return
  for (const pet of mustShow) {
    if (query.status !== undefined && pet.created.status !== query.status) continue
    if (!seen.has(pet.id)) {
      throw new ModelViolation(
        'lost-write',
        'listPets',
        `${what} returned ${page.length} of at most ${limit} pets without pet ${pet.id}, created by ${clip(pet.request)}.`,
      )
    }
  }
}

/** After every sequence: each pet the run created is still served unchanged, and listed while pages are not full. */
async function sweep(
  api: ModelApi,
  all: Map<number, KnownPet>,
): Promise<
  Omit<Extract<StatefulResult, { ok: false }>, 'ok' | 'seed' | 'path' | 'replayPath' | 'created'> | undefined
> {
  const pets = [...all.values()]
  const failure = (error: unknown, replay: string[]) => {
    const violation =
      error instanceof ModelViolation ? error : new ModelViolation('server-error', 'getPet', String(error))
    return {
      message: `Final sweep: ${violation.message}`,
      rule: violation.rule,
      operation: violation.operation,
      replay,
    }
  }
  for (let start = 0; start < pets.length; start += 8) {
    const chunk = pets.slice(start, start + 8)
    const replies = await Promise.all(chunk.map((pet) => api.getPet(pet.id)))
    for (const [index, reply] of replies.entries()) {
      const pet = chunk[index] as KnownPet
      try {
        expectPet(pet, reply)
      } catch (error) {
        return failure(error, [pet.request, reply.request])
      }
    }
  }
  for (const status of [undefined, ...statuses]) {
    const query = { limit: maxLimit, ...(status === undefined ? {} : { status }) }
    const reply = await api.listPets(query)
    try {
      expectList(query, reply, pets, all)
    } catch (error) {
      const missing = /without pet (\d+)/.exec((error as Error).message)?.[1]
      return failure(error, [...(missing ? [all.get(Number(missing))?.request ?? ''] : []), reply.request])
    }
  }
  return undefined
}

function unexpectedStatus(operationId: string, reply: Reply, wanted: number, about: string): ModelViolation {
  const declared = contract.operation(operationId).responses.some((r) => r.status === String(reply.status))
  const rule: StatefulRule =
    reply.status >= 500 ? 'server-error' : declared ? 'wrong-status' : 'undeclared-status'
  return new ModelViolation(
    rule,
    operationId,
    `${clip(reply.request)} answered ${reply.status} ${show(reply.body)}; expected ${wanted} for ${about}.`,
  )
}

function bodySchema(operationId: string, reply: Reply, why: string): ModelViolation {
  return new ModelViolation(
    'body-schema',
    operationId,
    `${clip(reply.request)} ${reply.status} body breaks the contract: ${why}.`,
  )
}

/**
 * How a served pet differs from the pet as created, on the contract's fields only (extra fields are the
 * server's own). A status the create did not send and the 201 did not show may be anything valid later.
 */
function differences(pet: KnownPet, served: Record<string, unknown>): string | undefined {
  if (served.id !== pet.id) return `came back with id ${JSON.stringify(served.id)}`
  for (const field of petFields) {
    const was = pet.created[field]
    if (was === undefined && !(field in pet.sent)) continue
    if (!sameValue(served[field], was))
      return `came back with ${field} ${show(served[field])}; it was created with ${show(was)} (by ${clip(pet.request)})`
  }
  return undefined
}

function byId(pets: readonly KnownPet[]): Map<number, KnownPet> {
  return new Map(pets.map((pet) => [pet.id, pet]))
}

function contractFields(pet: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(['id', ...petFields].filter((f) => f in pet).map((f) => [f, pet[f]]))
}

// Strings are compared code unit for code unit: NFC-normalising, trimming or re-encoding is a change.
function sameValue(a: unknown, b: unknown): boolean {
  return a === b
}

// Ids near 2^53−1 that no pet of this run has: no plausible server assigns them by chance.
/**
 * An id no pet plausibly has: 1.5 × 2^52, below the largest safe integer, which a server counting ids down
 * from it hands out first. Servers counting up, from any offset, or at random across the safe range do
 * not reach it in practice; one that does has a pet there, which expectNotFound accepts.
 */
export const unlikelyId = 1.5 * 2 ** 52

function unknownId(real: Real, offset: number): number {
  let id = unlikelyId - offset
  while (real.all.has(id)) id--
  return id
}

function clean(query: { limit?: number | undefined; status?: string | undefined }): {
  limit?: number
  status?: string
} {
  return {
    ...(query.limit === undefined ? {} : { limit: query.limit }),
    ...(query.status === undefined ? {} : { status: query.status }),
  }
}

/** A value as a report shows it: JSON, clipped, or "absent". */
function show(value: unknown): string {
  return value === undefined ? 'absent' : clip(JSON.stringify(value))
}

function clip(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text
}

function enumOf(pointer: string): string[] {
  const schema = followReference(contract.document, pointer).value
  return isRecord(schema) && Array.isArray(schema.enum) ? schema.enum.map(String) : []
}
