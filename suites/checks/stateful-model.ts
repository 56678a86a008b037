// The fast-check model of what the contract promises about state, over any transport, with shrinking.
import fc from 'fast-check'
import type { Int64 } from '../../contract/exact-json.ts'
import { stringifyExactJson } from '../../contract/exact-json.ts'
import { contract, type SchemaViolation } from '../../contract/index.ts'
import { followReference, isRecord } from '../../contract/openapi-document.ts'
import { CheckSkipped, RunDeadlineReached } from '../engine/index.ts'
import { clip } from '../output/index.ts'
import { fieldValues, int64Refused } from '../values/index.ts'

/** One answer of the API under test, as the model needs it. */
export interface Reply {
  status: number
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: unknown
  /** The request as a person replays it, e.g. `POST /pets {"name":"x","categoryId":1}`. */
  request: string
  /**
   * The caller already judged the body against the contract's schema and found nothing (the suite's send
   * does, and knows which pets an earlier create stored wrong): the model does not judge it again.
   */
  schemaJudged?: boolean
  /** Records of a list the caller left out of `body` as already reported broken: the page was that much longer. */
  setAside?: number
  /** How long the body's text was, if the caller knows: the sweep reads more at once while all are short. */
  size?: number
}

/** The three operations the model drives, over any transport (a real socket, an in-memory fake). */
export interface ModelApi {
  createPet(body: object): Promise<Reply>
  listPets(query: { limit?: number; status?: string }): Promise<Reply>
  getPet(id: Int64 | string): Promise<Reply>
}
// An adapter that got no answer at all returns status 0: the model reports it as 'no-response'.

export interface StatefulOptions {
  /** Same seed, same command sequences. Print it in every report so a failure can be replayed. */
  seed: number
  /** How many random sequences to run (fast-check's numRuns). */
  maxExamples: number
  /** Starts every name the run creates, so a person can find the run's pets on the server. */
  namePrefix: string
  /**
   * Leaves int64 values beyond 2^53 out of the bodies it sends (through Prism, which rounds them).
   * Default: they are sent like any other valid value.
   */
  safeIntegersOnly?: boolean
  /** Longest sequence (default 30 commands; a batch counts as one). */
  maxCommands?: number
  /** Told once the sequences are over and only the final sweep's reads are left. */
  onWritesOver?: () => void
  /** With `replayPath` (from a failure), replays that failure's shrunk sequence directly. */
  path?: string
  replayPath?: string
}

/** Which rule a failure breaks, in the lead's finding vocabulary. */
type StatefulRule =
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
      /**
       * Whether that sequence, sent again alone right after, failed the same way. When it did not, the
       * failure needed the state the server held then (earlier sequences' pets, other checks' traffic).
       * Undefined for the final sweep, which is not a sequence.
       */
      reproduced?: boolean
      message: string
      rule: StatefulRule
      /** `listPets`, `createPet` or `getPet`. */
      operation: string
      created: number
      /** Requests shrinking sent before its budget stopped it: the sequence shown may not be the shortest. */
      shrinkingStopped?: number
    }

/** The defaults keep a run around a second against a local server: 25 sequences of up to 30 commands. */
const defaultStatefulOptions = { maxExamples: 25, maxCommands: 30 } as const

/** A broken promise of the contract, found by a command or the final sweep. */
class ModelViolation extends Error {
  override name = 'ModelViolation'
  readonly rule: StatefulRule
  readonly operation: string
  /** The id of the pet a list left out, for a list's lost write (`rootOfUnlisted`). */
  readonly unlisted: Int64 | undefined
  constructor(rule: StatefulRule, operation: string, message: string, unlisted?: Int64) {
    super(message)
    this.rule = rule
    this.operation = operation
    this.unlisted = unlisted
  }
}

/** A pet the run created: what was sent, and its contract fields as the 201 returned them. */
interface KnownPet {
  id: Int64
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
  all: Map<Int64, KnownPet>
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
  const all = new Map<Int64, KnownPet>()
  const outcome = await checkSequences(api, options, all)
  if (outcome.failed) {
    const { violation, path, rendered, log, shrinkingStopped } = outcome
    const replayPath = /replayPath="([^"]*)"/.exec(rendered)?.[1] ?? ''
    // The shrunk sequence, sent once more on its own: a sequence printed as "minimal" must show the defect
    // by itself, or the report must say it needed the server's state at the time.
    const reproduced = await failsAlone(api, outcome.commands, violation)
    return {
      ok: false,
      seed: options.seed,
      path,
      replayPath,
      replay: log,
      reproduced,
      message: violation.message,
      rule: violation.rule,
      operation: violation.operation,
      created: all.size,
      ...(shrinkingStopped === undefined ? {} : { shrinkingStopped }),
    }
  }
  options.onWritesOver?.()
  const swept = await sweep(api, all)
  if (swept) return { ok: false, seed: options.seed, path: '', replayPath: '', created: all.size, ...swept }
  return { ok: true, seed: options.seed, created: all.size }
}

const sameDefect = (a: ModelViolation, b: ModelViolation) => a.rule === b.rule && a.operation === b.operation

/** How many of a seed's sequences are sent at once: each keeps its own order, a model of its own. */
const sequencesAtOnce = 8

/**
 * Runs the sequences; on a failure, the shrunk sequence that still shows the first defect seen.
 *
 * The sequences fast-check would run one after another (same seed, same values, same order) are sent
 * several at a time: against a distant server each command is a round trip, and the sequences of a run
 * need nothing of each other (each has its model; `all` only collects ids). The first failing one by its
 * index, not by time, is then replayed and shrunk by fast-check alone (`path`), one command after another.
 */
async function checkSequences(
  api: ModelApi,
  options: StatefulOptions,
  all: Map<Int64, KnownPet>,
): Promise<
  | { failed: false }
  | {
      failed: true
      violation: ModelViolation
      path: string
      rendered: string
      log: string[]
      commands: Iterable<Command>
      /** Requests shrinking sent before its budget stopped it, if it did. */
      shrinkingStopped?: number
    }
> {
  const commandsOf = fc.commands(commandArbitraries(options.namePrefix, options.safeIntegersOnly ?? false), {
    maxCommands: options.maxCommands ?? defaultStatefulOptions.maxCommands,
    // fast-check's default size gives ~5 commands a sequence; 'medium' ~14, up to maxCommands.
    size: 'medium',
    ...(options.replayPath === undefined ? {} : { replayPath: options.replayPath }),
  })
  let first: ModelViolation | undefined
  let path = options.path
  let found: { log: string[]; violation: ModelViolation; commands: Iterable<Command> } | undefined
  if (path === undefined) {
    const failure = await firstFailingSequence(api, options, all, commandsOf)
    if (!failure) return { failed: false }
    first = failure.violation
    found = failure
    path = String(failure.index)
  }
  let lastFailure: { log: string[]; violation: ModelViolation; commands: Iterable<Command> } | undefined
  let halted: Error | undefined
  // Shrinking sends each smaller candidate again, one command after another: against a server whose
  // failure comes and goes with its state, thousands of requests (8,400 in one realistic proof), hours at
  // a distance, past the run's deadline, which would turn a defect found into an unfinished run. Past its
  // budget every further candidate counts as passing, so shrinking ends on the smallest failing one found.
  // Counted from each candidate's log, which holds a line for every request answered.
  const spent = { requests: 0, stopped: false }
  const property = fc.asyncProperty(commandsOf, async (commands) => {
    if (spent.requests >= shrinkBudget) {
      spent.stopped = true
      return
    }
    const real: Real = { api, log: [], all }
    try {
      await fc.asyncModelRun(() => ({ model: { pets: [], bodies: [] }, real }), commands)
    } catch (error) {
      // A deliberate stop (the write cap, the run's deadline) ends the model as it ends any check.
      if (error instanceof CheckSkipped || error instanceof RunDeadlineReached) halted ??= error
      if (!(error instanceof ModelViolation)) throw error
      // Shrinking follows the first defect only: a smaller sequence failing for another reason (another
      // defect, or state other sequences left) is not a smaller example of this one.
      first ??= error
      if (!sameDefect(error, first)) return
      lastFailure = { log: real.log, violation: error, commands }
      throw error
    } finally {
      spent.requests += real.log.length
    }
  })
  const details = await fc.check(property, { seed: options.seed, numRuns: options.maxExamples, path })
  if (halted) throw halted
  // Sent again on its own, the failing sequence passed: it needed the state of the moment. It is shown as
  // it failed, unshrunk, and failsAlone says so.
  const stopped = spent.stopped ? { shrinkingStopped: spent.requests } : {}
  if (!details.failed && found)
    return { failed: true, ...found, path, rendered: String(found.commands), ...stopped }
  if (!details.failed) return { failed: false }
  if (!lastFailure) {
    // Not a broken promise of the server: a bug in the model or its adapter, which must not blame the server.
    throw new Error(
      `Failed to run the stateful model: ${String(details.errorInstance)} (seed ${options.seed}, path ${details.counterexamplePath}). ` +
        'This is a bug in the model or the ModelApi adapter; report it with the seed.',
      { cause: details.errorInstance },
    )
  }
  return {
    failed: true,
    violation: lastFailure.violation,
    path: details.counterexamplePath ?? '',
    rendered: String(details.counterexample?.[0] ?? ''),
    log: lastFailure.log,
    commands: lastFailure.commands,
    ...stopped,
  }
}

/** Requests shrinking may send: about what a whole default run sends, a minute at 100 ms a round trip. */
const shrinkBudget = 600

/** The sequences fast-check draws for the seed, in its order, without running any. */
async function drawnSequences(
  options: StatefulOptions,
  commandsOf: fc.Arbitrary<Iterable<Command>>,
): Promise<Iterable<Command>[]> {
  const drawn: Iterable<Command>[] = []
  await fc.check(
    fc.asyncProperty(commandsOf, async (commands) => {
      drawn.push(commands)
    }),
    { seed: options.seed, numRuns: options.maxExamples },
  )
  return drawn
}

/**
 * Sends the seed's sequences, `sequencesAtOnce` at a time, each in its own order with a model of its own;
 * the failure of the lowest-numbered failing sequence, whichever failed first in time.
 */
async function firstFailingSequence(
  api: ModelApi,
  options: StatefulOptions,
  all: Map<Int64, KnownPet>,
  commandsOf: fc.Arbitrary<Iterable<Command>>,
): Promise<
  { index: number; log: string[]; violation: ModelViolation; commands: Iterable<Command> } | undefined
> {
  const sequences = await drawnSequences(options, commandsOf)
  const outcomes: ({ log: string[]; error: unknown } | undefined)[] = sequences.map(() => undefined)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < sequences.length; index = next++) {
      const real: Real = { api, log: [], all }
      try {
        await runWithReadsAtOnce(real, sequences[index] as Iterable<Command>)
      } catch (error) {
        outcomes[index] = { log: real.log, error }
        // What stops the run stops every sequence; a defect stops only its own.
        if (!(error instanceof ModelViolation)) next = sequences.length
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(sequencesAtOnce, sequences.length) }, worker))
  const halted = outcomes.find(
    (outcome) => outcome?.error instanceof CheckSkipped || outcome?.error instanceof RunDeadlineReached,
  )
  if (halted) throw halted.error
  const index = outcomes.findIndex((outcome) => outcome !== undefined)
  const failed = outcomes[index]
  if (!failed) return undefined
  if (!(failed.error instanceof ModelViolation))
    throw new Error(
      `Failed to run the stateful model: ${String(failed.error)} (seed ${options.seed}, sequence ${index}). ` +
        'This is a bug in the model or the ModelApi adapter; report it with the seed.',
      { cause: failed.error },
    )
  return { index, log: failed.log, violation: failed.error, commands: sequences[index] as Iterable<Command> }
}

/**
 * Runs a sequence as fast-check's `asyncModelRun` does, except that reads in a row go at once. Between two
 * writes neither the server's pets nor the model change, so each read is judged exactly as if it had gone
 * alone; a distant server then costs one round trip for the row instead of one for each read. The log keeps
 * the sequence's order (`‖`: sent together), and the first failing read in that order is the sequence's
 * failure, whichever answered first; what the reads after it got is left out of the log, as a sequence sent
 * one command after another would never have sent them. Shrinking and the replay alone stay one command
 * after another (`fc.check`, `failsAlone`).
 */
async function runWithReadsAtOnce(real: Real, commands: Iterable<Command>): Promise<void> {
  const model: Model = { pets: [], bodies: [] }
  let row: Command[] = []
  const sendRow = async () => {
    const reads = row
    row = []
    const logs = reads.map((): string[] => [])
    const outcomes = await Promise.allSettled(
      reads.map((command, index) => command.run(model, { ...real, log: logs[index] as string[] })),
    )
    for (const [index, outcome] of outcomes.entries()) {
      const lines = logs[index] as string[]
      real.log.push(
        ...(reads.length === 1 ? lines : lines.map((line) => (line.startsWith('‖ ') ? line : `‖ ${line}`))),
      )
      if (outcome.status === 'rejected') throw outcome.reason
    }
  }
  for (const command of commands) {
    if (!(await command.check(model))) continue
    if (onlyReads(command)) {
      row.push(command)
      continue
    }
    await sendRow()
    await command.run(model, real)
  }
  await sendRow()
}

/** A command that neither creates nor changes the model: a list, a get, or a batch of those. */
function onlyReads(command: Command): boolean {
  // fast-check hands out its own wrapper of each command, which keeps the command as `cmd`.
  const own = (command as { cmd?: Command }).cmd ?? command
  if (own instanceof BatchCommand) return own.steps.every((step) => step.kind !== 'create')
  return own instanceof ListCommand || own instanceof GetCommand || own instanceof GetUnknownCommand
}

/** Sends a sequence once more, with a model of its own: whether it shows the same defect by itself. */
async function failsAlone(api: ModelApi, commands: Iterable<Command>, violation: ModelViolation) {
  const real: Real = { api, log: [], all: new Map() }
  try {
    await fc.asyncModelRun(() => ({ model: { pets: [], bodies: [] }, real }), commands)
    return false
  } catch (error) {
    if (!(error instanceof ModelViolation)) throw error
    return sameDefect(error, violation)
  }
}

/**
 * Names of any printable characters. fast-check's `grapheme` unit builds a table of every grapheme first
 * (~30 ms of CPU in the run's longest check); single code points, with now and then a grapheme of several
 * (a combining accent, a conjunct, a flag, a ZWJ emoji), reach the same code paths of a server.
 */
function unicodeName(): fc.Arbitrary<string> {
  const composite = fc.constantFrom(
    'e\u0301',
    '\u0915\u094d\u0937',
    '\u{1F1EB}\u{1F1F7}',
    '\u{1F469}\u200d\u{1F4BB}',
    '\u0e01\u0e48',
  )
  const unit = fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 1 }), weight: 4 },
    { arbitrary: composite, weight: 1 },
  )
  return fc.string({ unit, maxLength: 24 })
}

function commandArbitraries(namePrefix: string, safeIntegersOnly: boolean): fc.Arbitrary<Command>[] {
  const values = fieldValues('createPet')
  const pool = (field: string) =>
    (values[field] ?? [])
      .map((v) => v.value)
      .filter((value) => !safeIntegersOnly || typeof value !== 'bigint')
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...pool('name')), weight: 2 },
    { arbitrary: unicodeName(), weight: 1 },
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
    try {
      expectList(clean(this.query), reply, model.pets, byId(model.pets))
    } catch (error) {
      throw await rootOfUnlisted(error, real)
    }
  }
  toString = () => `list(${stringifyExactJson(clean(this.query))})`
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
    try {
      plan.forEach(({ step, pet, unknown }, index) => {
        const reply = replies[index] as Reply
        if (step.kind === 'list') expectList(clean(step.query), reply, before, byId(model.pets))
        else if (pet) expectPet(pet, reply)
        else if (unknown !== undefined) expectNotFound(unknown, reply)
      })
    } catch (error) {
      throw await rootOfUnlisted(error, real)
    }
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
  if (reply.status !== 201) {
    const refused = unexpectedStatus('createPet', reply, 201, `a valid body: ${clip(what, shownChars)}`)
    // A 64-bit value refused: say both ways out, as the value checks do.
    if (Object.values(body).some((value) => typeof value === 'bigint'))
      throw new ModelViolation(refused.rule, 'createPet', `${refused.message} ${int64Refused}`)
    throw refused
  }
  const pet = (reply.body ?? {}) as Record<string, unknown>
  // A sent value changed is the root, even when the change also breaks the schema (2^63−1 rounded to 2^63).
  for (const field of petFields) {
    if (!(field in body) || !(field in pet)) continue
    if (!sameValue(pet[field], body[field])) {
      throw new ModelViolation(
        'changed-value',
        'createPet',
        `POST /pets returned ${field} ${show(pet[field])} for ${field} ${show(body[field])} (sent: ${clip(what, shownChars)}).`,
      )
    }
  }
  const schema = reply.schemaJudged
    ? { ok: true as const }
    : contract.validateResponseBody('createPet', 201, reply.body)
  if (!schema.ok) throw bodySchemaViolation('createPet', reply, schema.errors)
  const id = pet.id as Int64
  const earlier = real.all.get(id)
  if (earlier) {
    throw new ModelViolation(
      'duplicate-id',
      'createPet',
      `POST /pets gave id ${id} to a new pet; it already belongs to the pet created by ${clip(earlier.request, shownChars)}.`,
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
      `GET /pets/${pet.id} answered 404 for the pet created by ${clip(pet.request, shownChars)}.`,
    )
  }
  if (reply.status !== 200) throw unexpectedStatus('getPet', reply, 200, `pet ${pet.id}, which exists`)
  const schema = reply.schemaJudged
    ? { ok: true as const }
    : contract.validateResponseBody('getPet', 200, reply.body)
  if (!schema.ok) throw bodySchemaViolation('getPet', reply, schema.errors)
  const change = changeSinceCreated(pet, reply.body as Record<string, unknown>)
  if (change) throw new ModelViolation('changed-value', 'getPet', `GET /pets/${pet.id} ${change}.`)
}

function expectNotFound(id: Int64, reply: Reply): void {
  // A pet of someone else's that happens to have this id is no defect (the model knows only its own pets).
  if (reply.status === 200 && (reply.body as { id?: unknown } | undefined)?.id === id) return
  if (reply.status !== 404) throw unexpectedStatus('getPet', reply, 404, `id ${id}, which no pet has`)
  const schema = reply.schemaJudged
    ? { ok: true as const }
    : contract.validateResponseBody('getPet', 404, reply.body)
  if (!schema.ok) throw bodySchemaViolation('getPet', reply, schema.errors)
  if ((reply.body as { status?: unknown }).status !== 404) {
    throw new ModelViolation(
      'error-status',
      'getPet',
      `GET /pets/${id} 404 body says status ${stringifyExactJson((reply.body as { status?: unknown }).status)}.`,
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
  compare: ReadonlyMap<Int64, KnownPet>,
): void {
  const what = reply.request
  if (reply.status !== 200) throw unexpectedStatus('listPets', reply, 200, 'a valid query')
  const schema = reply.schemaJudged
    ? { ok: true as const }
    : contract.validateResponseBody('listPets', 200, reply.body)
  if (!schema.ok) throw bodySchemaViolation('listPets', reply, schema.errors)
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
        `${what} returned pets ${others.map((pet) => `${pet.id} (status ${stringifyExactJson(pet.status)})`).join(', ')}.`,
      )
    }
  }
  const seen = new Map<Int64, Record<string, unknown>>()
  for (const listed of page) {
    const id = listed.id as Int64
    const twin = seen.get(id)
    if (twin && stringifyExactJson(contractFields(twin)) !== stringifyExactJson(contractFields(listed))) {
      throw new ModelViolation(
        'duplicate-id',
        'listPets',
        `${what} lists two different pets with id ${id}: ${show(twin)} and ${show(listed)}.`,
      )
    }
    seen.set(id, listed)
    const known = compare.get(id)
    const change = known && changeSinceCreated(known, listed)
    if (change) throw new ModelViolation('changed-value', 'listPets', `${what}: pet ${id} ${change}.`)
  }
  // The only presence rule: a matching pet must be on a page that is not full.
  if (page.length + (reply.setAside ?? 0) >= limit) return
  for (const pet of mustShow) {
    if (query.status !== undefined && pet.created.status !== query.status) continue
    if (!seen.has(pet.id)) {
      throw new ModelViolation(
        'lost-write',
        'listPets',
        `${what} returned ${page.length} of at most ${limit} pets without pet ${pet.id}, created by ${clip(pet.request, shownChars)}.`,
        pet.id,
      )
    }
  }
}

/**
 * A pet a list left out is read once by its id: a server that no longer serves it lost the write, the
 * root, reported on getPet whichever read saw it gone first (on a store that drops pets as other checks
 * create theirs, a list or a read, as the run's creates interleave); one that still serves it only lists
 * it wrong, and the list's violation stands.
 */
async function rootOfUnlisted(error: unknown, real: Real): Promise<unknown> {
  if (!(error instanceof ModelViolation) || error.unlisted === undefined) return error
  let reply: Reply
  try {
    reply = await call(real, real.api.getPet(error.unlisted))
  } catch {
    // No answer to judge (the deadline, a server that stopped answering): the list's finding stands.
    return error
  }
  if (reply.status !== 404) return error
  return new ModelViolation(
    'lost-write',
    'getPet',
    `${error.message} ${reply.request} answered 404: the pet is gone, not only left off the list.`,
  )
}

/** After every sequence: each pet the run created is still served unchanged, and listed while pages are not full. */
async function sweep(
  api: ModelApi,
  all: Map<Int64, KnownPet>,
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
  // Eight reads in flight, each reply judged as it comes and let go, its failure kept: replies held until
  // the last of a batch came would hold that many bodies, which a server can pad to the byte cap. Sixteen
  // once the first eight replies all came small (a pet is a few hundred bytes), until one does not: bodies
  // of many small values (which no gate paces, body-gate.ts) took the run to 228–262 MB of its 250 at
  // sixteen (bounded-memory.process.test.ts), 218–221 at eight, while sixteen small ones hold next to
  // nothing; at 100 ms a round trip, sixteen take ~50 pets in 4 round trips instead of 6. The first failure
  // in the pets' order wins, whatever answered first or how many were in flight.
  const reads: (ReturnType<typeof failure> | undefined)[] = []
  let next = 0
  let small = 0
  let large = false
  const more: Promise<void>[] = []
  const reader = async (extra: boolean) => {
    for (let index = next++; index < pets.length; index = next++) {
      const pet = pets[index] as KnownPet
      const reply = await api.getPet(pet.id)
      if (reply.size === undefined || reply.size > smallReply) large = true
      else if (++small === sweepReadsAtOnce && !large)
        for (let one = 0; one < sweepReadsAtOnce; one++) more.push(reader(true))
      try {
        expectPet(pet, reply)
      } catch (error) {
        reads[index] = failure(error, [pet.request, reply.request])
        next = pets.length
      }
      if (extra && large) return
    }
  }
  // The lists beside the reads: each judges the same pets, which no read changes; the reads' failure comes
  // first, then the first failing filter in this order.
  const [, lists] = await Promise.all([
    // The extra readers start from within the first eight, before these end.
    Promise.all(Array.from({ length: sweepReadsAtOnce }, () => reader(false))).then(() => Promise.all(more)),
    Promise.all(
      [undefined, ...statuses].map(async (status) => {
        const query = { limit: maxLimit, ...(status === undefined ? {} : { status }) }
        const reply = await api.listPets(query)
        try {
          expectList(query, reply, pets, all)
          return undefined
        } catch (error) {
          const missing = /without pet (-?\d+)/.exec((error as Error).message)?.[1]
          const lost = pets.find((pet) => String(pet.id) === missing)
          return failure(error, [...(lost ? [lost.request] : []), reply.request])
        }
      }),
    ),
  ])
  return reads.find((outcome) => outcome !== undefined) ?? lists.find((outcome) => outcome !== undefined)
}

const sweepReadsAtOnce = 8
/** A reply this short parses to a few hundred values at most: sixteen of them at once hold next to nothing. */
const smallReply = 4096

function unexpectedStatus(operationId: string, reply: Reply, wanted: number, about: string): ModelViolation {
  const declared = contract.operation(operationId).responses.some((r) => r.status === String(reply.status))
  const rule: StatefulRule =
    reply.status >= 500 ? 'server-error' : declared ? 'wrong-status' : 'undeclared-status'
  return new ModelViolation(
    rule,
    operationId,
    `${clip(reply.request, shownChars)} answered ${reply.status} ${show(reply.body)}; expected ${wanted} for ${about}.`,
  )
}

function bodySchemaViolation(
  operationId: string,
  reply: Reply,
  errors: readonly SchemaViolation[],
): ModelViolation {
  const why = errors.map((e) => e.message).join('; ')
  return new ModelViolation(
    'body-schema',
    operationId,
    `${clip(reply.request, shownChars)} ${reply.status} body breaks the contract: ${why}.`,
  )
}

/**
 * How a served pet differs from the pet as created, on the contract's fields only (extra fields are the
 * server's own). A status the create did not send and the 201 did not show may be anything valid later.
 */
function changeSinceCreated(pet: KnownPet, served: Record<string, unknown>): string | undefined {
  if (served.id !== pet.id) return `came back with id ${stringifyExactJson(served.id)}`
  for (const field of petFields) {
    const was = pet.created[field]
    if (was === undefined && !(field in pet.sent)) continue
    if (!sameValue(served[field], was))
      return `came back with ${field} ${show(served[field])}; it was created with ${show(was)} (by ${clip(pet.request, shownChars)})`
  }
  return undefined
}

function byId(pets: readonly KnownPet[]): Map<Int64, KnownPet> {
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

// A request or value in a model failure is shown up to this length: enough to tell one apart.
const shownChars = 160

/** A value as a report shows it: JSON, clipped, or "absent". */
function show(value: unknown): string {
  return value === undefined ? 'absent' : clip(stringifyExactJson(value), shownChars)
}

function enumOf(pointer: string): string[] {
  const schema = followReference(contract.document, pointer).value
  return isRecord(schema) && Array.isArray(schema.enum) ? schema.enum.map(String) : []
}
