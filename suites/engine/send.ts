// Sends a check's request through the run's bounded client and records it; judging is judge-exchange.ts's.
import { contract } from '../../contract/index.ts'
import { parseViolations } from '../../mocks/prism/sl-violations.ts'
import type { SendParams, Violation } from '../judging/index.ts'
import { describeExchange, type Exchange, type Recorder, record, recordOf } from '../judging/index.ts'
import { boundedRequest } from '../network/index.ts'
import { buildRequest } from './build-request.ts'
import { CheckBlocked, CheckFailure, RunDeadlineReached } from './check-outcomes.ts'
import { claimCreated } from './created-ids.ts'
import { judgeExchange } from './judge-exchange.ts'
import type { Transport } from './transport.ts'

// Three silent requests in a row: the server may have stopped answering, and waiting on every further
// request would only multiply one defect by the number of checks and the deadline.
const failuresBeforeDown = 3

/**
 * Sends one request for `operationId` (method and path come from the contract) and records every rule the
 * response breaks whatever the check wants of it. Returns the exchange; throws only when there is no
 * response to judge (CheckFailure), the server has stopped answering (CheckBlocked) or the run's deadline
 * passed (RunDeadlineReached).
 */
export async function send(
  transport: Transport,
  recorder: Recorder,
  operationId: string,
  params: SendParams,
): Promise<Exchange> {
  if (operationId !== 'createPet') return sendOnce(transport, recorder, operationId, params)
  // Its pet is the run's before the create settles: reads waiting on the creates in flight then know it.
  const pending = sendOnce(transport, recorder, operationId, params).then((exchange) => {
    claimCreated(transport, exchange)
    return exchange
  })
  transport.creates.add(pending)
  try {
    return await pending
  } finally {
    transport.creates.delete(pending)
  }
}

async function sendOnce(
  transport: Transport,
  recorder: Recorder,
  operationId: string,
  params: SendParams,
): Promise<Exchange> {
  const { target } = transport
  const operation = contract.operation(operationId)
  if (transport.down) throw new CheckBlocked(transport.down)
  const { request, viaPrism, leaveOut } = buildRequest(target, operation, params)
  const { method, url } = request
  // A 429 the operation declares is an answer of the contract; any other is staging's throttling.
  const declares429 = operation.responses.some((response) => response.status === '429')

  // A spelling outside the contract may be refused at the door (a closed connection, a firewall that never
  // answers): no data either way, so it gets a short wait and no verdict on the server's availability.
  const outside = params.intent === 'no-data'
  const limits = outside
    ? { ...transport.limits, requestTimeoutMs: Math.min(transport.limits.requestTimeoutMs, 2_000) }
    : transport.limits
  const outcome = await boundedRequest(
    url,
    { ...request, declares429, ...(leaveOut === undefined ? {} : { leaveOut }) },
    limits,
  )
  if (!outcome.ok && (outcome.kind === 'run-deadline' || outcome.kind === 'throttled'))
    throw new RunDeadlineReached(`${method} ${url}: ${outcome.message}`)
  if (outside && !outcome.ok && outcome.kind !== 'too-large') {
    const exchange: Exchange = {
      operation: operation.id,
      request,
      response: { status: 0, headers: {}, body: `(no answer: ${outcome.message})` },
      violations: [],
      bodyUsable: false,
    }
    recorder.exchanges.push(recordOf(exchange))
    return exchange
  }
  if (!outcome.ok && outcome.kind !== 'too-large') {
    const response = ('response' in outcome ? outcome.response : undefined) ?? {
      status: 0,
      headers: {},
      body: '',
    }
    const unanswered: Exchange = {
      operation: operation.id,
      request,
      response,
      violations: [],
      bodyUsable: false,
    }
    const violation: Violation = {
      rule: 'no-response',
      operation: operation.id,
      where: 'the server stopped answering',
      message: `${method} ${url} got no complete response: ${outcome.message}.`,
      exchange: describeExchange(unanswered),
    }
    transport.failuresInARow++
    if (transport.failuresInARow >= failuresBeforeDown) await confirmDown(transport, violation)
    // The exchange goes with the failure so that the report can show how to send that request again.
    throw new CheckFailure(violation, unanswered)
  }
  transport.failuresInARow = 0
  const at = transport.answers++
  const { response } = outcome
  const exchange: Exchange = {
    operation: operation.id,
    request,
    response,
    violations: [],
    bodyUsable: outcome.ok,
    ...(viaPrism ? { prismViolations: parseViolations(response.headers['sl-violations']) } : {}),
  }
  const seal = record(recorder, exchange)
  try {
    await judgeExchange(
      transport,
      recorder,
      exchange,
      operation,
      params,
      outcome.ok ? undefined : outcome.message,
      at,
    )
  } finally {
    seal()
  }
  return exchange
}

/**
 * Whether three failures came in a row, or an answer came between them, is how the requests in flight
 * interleaved, not what the server does: one request the server answers when it answers at all (the first
 * page of the list, with the key, as the pre-flight asks) settles it. Answered, the count starts again and
 * the failures stay each its own check's; unanswered, the server stopped answering and the rest of the
 * run is blocked by it. One such request at a time: failures meanwhile wait for its answer.
 */
function confirmDown(transport: Transport, violation: Violation): Promise<void> {
  transport.probing ??= (async () => {
    const { request } = buildRequest(transport.target, contract.operation('listPets'), {
      intent: 'valid',
      query: { limit: 1 },
    })
    const outcome = await boundedRequest(request.url, request, transport.limits)
    if (outcome.ok || outcome.kind === 'too-large') transport.failuresInARow = 0
    else if (outcome.kind !== 'run-deadline' && outcome.kind !== 'throttled') transport.down ??= violation
  })().finally(() => {
    transport.probing = undefined
  })
  return transport.probing
}
