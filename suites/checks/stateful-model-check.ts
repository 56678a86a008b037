// The fast-check model as a check: its API over the suite's send, its failures in the report's words.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import {
  type Check,
  CheckBlocked,
  type CheckContext,
  CheckFailure,
  changedValue,
  RunDeadlineReached,
} from '../engine/index.ts'
import type { SendParams, Violation } from '../judging/index.ts'
import { type Exchange, jsonOf, prismRounded } from '../judging/index.ts'
import { type ModelApi, type Reply, runStatefulModel, type StatefulResult } from './stateful-model.ts'
import { judgeRefusedFields } from './valid-value-refused.ts'

/**
 * The model's API over the suite's own `send`: every request is bounded and recorded, and every response is
 * judged by the same rules as the other checks'. What stops the run (the server stopped answering, the
 * deadline) is not the model's to shrink: it is rethrown as it is.
 */
function modelApi(context: CheckContext, last: { exchange?: Exchange }): ModelApi {
  let refusal: Promise<void> | undefined
  const call = async (operationId: string, params: SendParams, request: string): Promise<Reply> => {
    const exchange = await context.send(operationId, params)
    last.exchange = exchange
    // An id the run was already given (another check's pet) is the root cause: read back, it shows the other
    // pet, which the model alone would report as a changed value. Stopped here, as createPetStep stops.
    const duplicate = exchange.violations.find((violation) => violation.rule === 'duplicate-id')
    if (duplicate) throw new CheckFailure(duplicate, exchange)
    // A body the suite could not read (over a cap, not JSON) is already that finding: the model would judge
    // what is left of it (the start of a body cut at its cap) as a schema violation of its own.
    const unread = exchange.bodyUsable ? undefined : exchange.violations[0]
    if (unread) throw new CheckFailure(unread, exchange)
    // Through Prism, int64 bounds arrive rounded to ±2^63 by Prism itself: read them as the bounds.
    const body = exchange.prismViolations ? prismRounded(jsonOf(exchange)) : jsonOf(exchange)
    const schemaJudged = exchange.bodyUsable && exchange.violations.length === 0
    return {
      status: exchange.response.status,
      body,
      request,
      schemaJudged,
      size: exchange.response.bodyLength ?? exchange.response.body.length,
      ...(exchange.setAside ? { setAside: exchange.setAside } : {}),
    }
  }
  return {
    async createPet(body) {
      const reply = await call(
        'createPet',
        { intent: 'valid', body: stringifyExactJson(body) },
        `POST /pets ${stringifyExactJson(body)}`,
      )
      // A valid value refused is one finding per field, whichever check sent it: found here, it is that one.
      // Judged once: shrinking sends the refused body again, and the answer is the same finding.
      const { status } = reply
      if (status >= 400 && status <= 499 && status !== 401 && last.exchange?.violations.length === 0) {
        refusal ??= judgeRefusedFields(context, body as Record<string, unknown>)
        await refusal
      }
      return reply
    },
    listPets: (query) => {
      const search = new URLSearchParams(
        Object.entries(query).map(([name, value]) => [name, String(value)]),
      ).toString()
      return call('listPets', { intent: 'valid', query: search }, `GET /pets${search ? `?${search}` : ''}`)
    },
    getPet: (id) =>
      call(
        'getPet',
        { intent: 'valid', rawPath: `/pets/${encodeURIComponent(String(id))}` },
        `GET /pets/${id}`,
      ),
  }
}

/** Where a model failure shows, in the words the other checks use, so one defect stays one finding. */
function whereOf(failure: Extract<StatefulResult, { ok: false }>): string {
  switch (failure.rule) {
    case 'lost-write':
      return 'stored pets can be read back'
    case 'changed-value':
      return changedValue.where
    case 'duplicate-id':
      return 'createPet ids'
    case 'filter':
      return 'query status'
    case 'limit':
      return 'query limit'
    case 'wrong-status':
      if (failure.operation === 'getPet')
        return /answered 404/.test(failure.message) ? 'stored pets can be read back' : 'getPet unknown id'
      return failure.operation === 'createPet'
        ? 'createPet refuses a valid body'
        : 'listPets answers a valid request'
    default:
      return `${failure.operation} (stateful model)`
  }
}

/**
 * Random, shrinkable sequences of creates (identical bodies and repeated names included), lists over every
 * filter × limit, gets of known and unknown ids, and concurrent batches, against a model of only what the
 * contract promises; then a final sweep. A failure is shown as the minimal sequence, replayable by seed.
 */
export const statefulModelCheck: Check = {
  group: 'stateful',
  name: 'random sequences keep every promise the contract makes about state (fast-check model)',
  writes: true,
  async run(context) {
    const { target } = context
    const last: { exchange?: Exchange } = {}
    let result: StatefulResult
    try {
      result = await runStatefulModel(modelApi(context, last), {
        seed: target.seed,
        maxExamples: target.maxExamples,
        namePrefix: `${context.fixtures.runId} model `,
        // Prism's proxy rounds int64 values beyond 2^53 in the bodies it passes on.
        safeIntegersOnly: target.prismUrl !== undefined,
        // The end-of-run checks read back what the run's writes may have undone, beside the sweep's reads.
        onWritesOver: context.wroteLast,
      })
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause
      if (
        cause instanceof CheckBlocked ||
        cause instanceof RunDeadlineReached ||
        cause instanceof CheckFailure
      )
        throw cause
      throw error
    }
    if (result.ok) return
    // A status or body rule the response broke on its own is the root; the model only saw its effect.
    const generic = context.recorder.exchanges
      .flatMap((exchange) => exchange.violations)
      .find((violation) => violation.rule === result.rule && violation.operation === result.operation)
    const violation: Violation = generic ?? {
      rule: result.rule,
      operation: result.operation,
      where: whereOf(result),
      message: result.message,
    }
    const replay = result.replay.map((line) => `    ${line}`).join('\n')
    const rerun = `${target.command ?? 'npx animal-store-conformance'} --base-url ${target.baseUrl} --seed ${result.seed}`
    // Records stored before the run are earlier state a fresh server does not have: no claim about one. A
    // pet one of the run's own creates stored wrong is not one: a fresh server stores it too.
    const storedData =
      violation.rule === 'stored-record' ||
      context.recorder.exchanges.some(
        (exchange) =>
          exchange.affectedBy?.rule === 'stored-record' ||
          exchange.violations.some((seen) => seen.rule === 'stored-record'),
      )
    const how =
      result.reproduced === true && storedData
        ? `Stateful model, seed ${result.seed}: the minimal sequence that shows it (‖ = sent concurrently); sent again alone right after, it failed the same way, but the server holds records stored before this run, so a fresh server may not show it:\n${replay}\nReplay against this server: ${rerun}.`
        : result.reproduced === undefined
          ? `Final sweep of the stateful model, seed ${result.seed}: the requests that show it:\n${replay}\nReplay: ${rerun}.`
          : result.reproduced
            ? `Stateful model, seed ${result.seed}: the minimal sequence that shows it (‖ = sent concurrently); sent again alone right after, it failed the same way, so it needs none of the model's earlier requests (what the other checks stored may still count):\n${replay}\nReplay on a fresh server: ${rerun}.`
            : `Stateful model, seed ${result.seed}: the shortest failing sequence found (‖ = sent concurrently); sent again alone right after, it did NOT fail, so it needs the state the server held at the time (what the model had created before it, ${result.created} pets in all, and the other checks running beside it):\n${replay}\nReplay the whole run: ${rerun}.`
    const stopped =
      result.shrinkingStopped === undefined
        ? ''
        : `\nShrinking stopped after ${result.shrinkingStopped} requests, its budget: a shorter sequence may show it too.`
    throw new CheckFailure({ ...violation, message: `${violation.message}\n${how}${stopped}` }, undefined)
  },
}
