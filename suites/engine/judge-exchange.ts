// Judges every exchange by every rule a response must keep, re-judging reads once in-flight creates settle.
import { keepDeclaredMembers } from '../../contract/declared-members.ts'
import { contract } from '../../contract/index.ts'
import type { Operation } from '../../contract/operations.ts'
import type { Recorder, SendParams, Violation } from '../judging/index.ts'
import {
  declaredResponse,
  describeExchange,
  type Exchange,
  judgePrism,
  judgeResponse,
} from '../judging/index.ts'
import { largeBodyBytes, releaseJudgedBody } from '../network/index.ts'
import { CheckBlocked } from './check-outcomes.ts'
import type { Transport } from './transport.ts'

/**
 * A body over a cap on `operation`: one finding for every answer so (one place, `response bodies`), whether
 * a check read it or the pre-flight found every answer so (check-context.ts).
 */
export function tooLargeViolation(operation: string, message: string): Violation {
  return { rule: 'response-too-large', operation, where: 'response bodies', message }
}

/**
 * Judges the exchange by every rule a response must keep, whatever the check wants of it; a read judged
 * while creates were in flight is judged again once their verdicts are in.
 */
export async function judgeExchange(
  transport: Transport,
  recorder: Recorder,
  exchange: Exchange,
  operation: Operation,
  params: SendParams,
  /** Why the body was not read whole, when it was not. */
  tooLarge: string | undefined,
  at: number,
): Promise<void> {
  const { response, request } = exchange
  // A response to another spelling of the path, to another method, or at a URL a header named says nothing
  // about the operation's own statuses.
  if (!['no-data', 'unsupported-method', 'named-by-header'].includes(params.intent)) {
    exchange.pair = `${operation.id} ${response.status}`
    recorder.seen.add(exchange.pair)
  }
  if (tooLarge !== undefined) {
    exchange.violations.push({
      ...tooLargeViolation(
        operation.id,
        `${request.method} ${request.url}: ${tooLarge}; the contract's bodies are small JSON documents.`,
      ),
      exchange: describeExchange(exchange),
    })
    return
  }
  // A read that breaks the schema while creates are in flight may show a pet one of them stored wrong before
  // its 201 was judged: that first verdict is tentative; once their verdicts are in, the read is judged again.
  const tentative = response.status === 200 && (transport.creates.size > 0 || params.unreported === true)
  judgeResponse(exchange, operation, params, recorder, { ...transport, tentative })
  if (
    tentative &&
    !params.unreported &&
    exchange.violations.some(
      (violation) => violation.rule === 'body-schema' || violation.rule === 'stored-record',
    )
  ) {
    await Promise.allSettled([...transport.creates])
    exchange.violations = []
    exchange.bodyUsable = true
    delete exchange.json
    delete exchange.affectedBy
    delete exchange.setAside
    judgeResponse(exchange, operation, params, recorder, transport)
  }
  judgePrism(exchange, operation, recorder)
  if ('json' in exchange) {
    // Judged, its value kept: the check needs no more of its text than a report shows, and of a large
    // body's value no more than the members the contract declares, which are all a check reads. Sixteen
    // checks in flight each held a pet with a 4 MB member the contract leaves open (40 MB live at once).
    if (exchange.response.body.length >= largeBodyBytes) keepDeclaredOf(exchange, operation)
    releaseJudgedBody(exchange.response)
  }
  await traceServerErrors(transport, exchange, operation, params, at)
}

/** Drops the members of a judged value its response's schema (the Error shape for a 4xx or 5xx) does not declare. */
function keepDeclaredOf(exchange: Exchange, operation: Operation): void {
  const { status } = exchange.response
  const pointer =
    declaredResponse(operation, status)?.schemaPointer ??
    (status >= 400 ? '#/components/schemas/Error' : undefined)
  if (pointer !== undefined) keepDeclaredMembers(contract.document, pointer, exchange.json)
}

/**
 * A create that fails with a 5xx may still have stored what it was sent (a row written before encoding the
 * answer failed, say), and every read that serves the record fails from then on. Those reads are that
 * create's damage, one defect: a read of pets that answered 2xx before the create failed and 5xx after it
 * is blocked by the create's finding instead of being a finding of its own. A read that failed from the
 * start is a defect of its own.
 */
async function traceServerErrors(
  transport: Transport,
  exchange: Exchange,
  operation: Operation,
  params: SendParams,
  at: number,
): Promise<void> {
  const readsPets =
    operation.method === 'GET' && operation.responses.some((response) => response.status === '200')
  if (!readsPets && operation.id !== 'createPet') return
  const serverError = exchange.violations.find((violation) => violation.rule === 'server-error')
  if (!serverError) {
    const { status } = exchange.response
    // Only a read the contract says must work shows it worked: an unauthorised or invalid one answered 2xx
    // is a defect of its own, not evidence that reading was fine before a create broke it.
    if (
      readsPets &&
      params.intent === 'valid' &&
      status >= 200 &&
      status < 300 &&
      !transport.firstSuccess.has(operation.id)
    )
      transport.firstSuccess.set(operation.id, at)
    return
  }
  if (!readsPets) {
    // Only a body the server got past its door can have been stored: not one sent without a key.
    if (['valid', 'valid-or-refused', 'invalid'].includes(params.intent))
      transport.brokenCreate ??= { violation: serverError, at }
    return
  }
  if (params.intent !== 'valid') return
  // A create in flight may be the one that broke this read: its answer decides.
  if (transport.creates.size > 0) await Promise.allSettled([...transport.creates])
  const broken = transport.brokenCreate
  const workedBefore = transport.firstSuccess.get(operation.id)
  if (broken === undefined || workedBefore === undefined || workedBefore >= broken.at) return
  // Not a finding of its own: the check stops on the create's.
  exchange.violations = exchange.violations.filter((violation) => violation !== serverError)
  throw new CheckBlocked(broken.violation)
}
