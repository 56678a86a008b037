import { containsBigInt } from '../../contract/exact-json.ts'
import { contract } from '../../contract/index.ts'
import type { Operation } from '../../contract/operations.ts'
import { parseViolations } from '../../mocks/prism/sl-violations.ts'
import {
  CheckBlocked,
  CheckFailure,
  describeExchange,
  type Exchange,
  RunDeadlineReached,
} from '../judging/exchange.ts'
import type { Violation } from '../judging/findings.ts'
import { parseJson } from '../judging/parse-json.ts'
import { judgePrism, judgeResponse } from '../judging/response-checks/index.ts'
import { boundedRequest, type RequestLimits } from '../network/bounded-request.ts'
import { releaseJudgedBody } from '../network/response-body.ts'
import type { ConformanceTarget } from './target.ts'

/**
 * What the request is meant to be, which decides what a conforming answer is:
 * - `valid`: conforms to the contract; the answer's status must be one the operation declares;
 * - `invalid`: breaks the contract's own constraints; any 4xx with an Error body, an undeclared one
 *   being a warning (the contract does not say which 4xx);
 * - `unauthorized`: no or a bad API key; 401 with an Error body (Authentication §3);
 * - `no-such-pet`: a valid id no pet can have (0, negative); any 4xx with an Error body, or a 2xx the check
 *   judges (the pet must be that one);
 * - `no-data`: no key, on a spelling of a path that a router may or may not treat as the operation's; the
 *   answer may be anything but data (2xx) or a server error, and its body is the router's business;
 * - `valid-or-refused`: valid, but awkward for a server (a lone surrogate, NUL, a duplicate key): a declared
 *   2xx that gives back exactly what was sent, or any 4xx with an Error body; never a 5xx;
 * - `unsupported-method`: a valid key, on a path of the contract, with a method it does not declare there:
 *   never a 2xx; the check judges which 4xx (405 with `Allow` by RFC 9110 §15.5.6).
 */
export type Intent =
  | 'valid'
  | 'invalid'
  | 'unauthorized'
  | 'no-such-pet'
  | 'no-data'
  | 'valid-or-refused'
  | 'unsupported-method'

export interface SendParams {
  intent: Intent
  /**
   * For `invalid`: what breaks the contract (`query limit`, `body /categoryId`); for `unauthorized`: the
   * kind of credential (`no credentials`). Requests that show the same root cause share this text.
   */
  fault?: string
  /** Path parameter values, as text or numbers (`{ petId: 12 }`). */
  path?: Record<string, string | number>
  /** Query parameters, sent in this order; a string is sent as it is (`limit=1&limit=2`). */
  query?: Record<string, string | number> | string
  /** The path to send instead of the operation's, relative to the base URL and sent byte for byte (`/pets/%2D1`). */
  rawPath?: string
  /**
   * A path from the server's origin, the base URL's own prefix included, sent byte for byte and never
   * through Prism: another spelling of the operation's path (`/V1/PETS`), for router checks.
   */
  originPath?: string
  /** Replaces the `Authorization` header; `null` sends none. Default: `Bearer <api key>`. */
  authorization?: string | null
  /** Raw body text, sent with `Content-Type: application/json`. */
  body?: string
  /** Another method than the operation's (for `unsupported-method`). */
  method?: string
  headers?: Record<string, string>
}

/** What one check accumulates while it sends. */
export interface Recorder {
  exchanges: RecordedExchange[]
  /** What the server does that a person may want to look at, though the contract allows it. */
  warnings: string[]
  /** What the contract's owner may want to change (a status every server answers, undeclared). */
  advice: string[]
  notes: string[]
  /** `operation status` pairs seen, for the coverage check (shared by the run). */
  seen: Set<string>
}

/** The run's connection to the server: where, within what bounds, and whether it still answers. */
export interface Transport {
  target: ConformanceTarget
  limits: RequestLimits
  /** Requests in a row that got no complete response; a few in a row mean the server stopped answering. */
  failuresInARow: number
  /** Set once the server stopped answering: later requests are blocked by this instead of waiting. */
  down?: Violation
  /** Ids of pets whose create answered a changed value, with that finding: later reads are affected by it. */
  storedWrong: Map<string, Violation>
  /** Ids the server gave this run's creates: any other pet it serves was stored before the run. */
  createdIds: Set<string>
  /** Creates still waiting for their answer: a read that shows their pets waits for their verdict. */
  creates: Set<Promise<unknown>>
  /** Answers so far: each answer's place in the run. */
  answers: number
  /** Per read operation, the place of its first 2xx. */
  firstSuccess: Map<string, number>
  /** The first create answered 5xx, and its place: reads that worked before it and fail after are its damage. */
  brokenCreate?: { violation: Violation; at: number }
}

// Three silent requests in a row: the server has stopped answering, and waiting on every further request
// would only multiply one defect by the number of checks and the deadline.
const failuresBeforeDown = 3

/** The method and path of an operation with its parameters filled in, from the contract. */
function requestLine(operation: Operation, params: Pick<SendParams, 'path' | 'query' | 'rawPath'>) {
  const path =
    params.rawPath ??
    operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params.path?.[name]
      if (value === undefined) throw new Error(`No value for path parameter ${name} of ${operation.id}.`)
      return encodeURIComponent(String(value))
    })
  const query =
    typeof params.query === 'string'
      ? params.query
      : new URLSearchParams(
          Object.entries(params.query ?? {}).map(([name, value]) => [name, String(value)]),
        ).toString()
  return { method: operation.method, path: query === '' ? path : `${path}?${query}` }
}

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
  const pending = sendOnce(transport, recorder, operationId, params)
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
  const line = requestLine(operation, params.originPath === undefined ? params : { rawPath: '' })
  const { path } = line
  const method = params.method ?? line.method
  // Prism's proxy answers a body that is not JSON itself (its own 400) instead of forwarding it, so such
  // requests go straight to the server: otherwise the server would be judged on Prism's answer.
  // Nor do bodies holding integers beyond 2^53: Prism (JavaScript) re-serialises them through doubles, so
  // the server would be judged on values it never received (-2^63−1 arrives as -2^63, a valid int64).
  const viaPrism =
    target.prismUrl !== undefined &&
    params.originPath === undefined &&
    !(params.body !== undefined && params.body !== '' && !judgeableThroughPrism(params.body))
  const url =
    params.originPath !== undefined
      ? `${new URL(target.baseUrl).origin}${params.originPath}`
      : `${viaPrism ? target.prismUrl : target.baseUrl}${path}`
  const headers: Record<string, string> = { accept: 'application/json', ...params.headers }
  const authorization = params.authorization === undefined ? `Bearer ${target.apiKey}` : params.authorization
  if (authorization !== null) headers.authorization = authorization
  if (params.body !== undefined) headers['content-type'] ??= 'application/json'
  const request = { method, url, headers, ...(params.body === undefined ? {} : { body: params.body }) }
  // A 429 the operation declares is an answer of the contract; any other is staging's throttling.
  const declares429 = operation.responses.some((response) => response.status === '429')

  // A spelling outside the contract may be refused at the door (a closed connection, a firewall that never
  // answers): no data either way, so it gets a short wait and no verdict on the server's availability.
  const outside = params.intent === 'no-data'
  const limits = outside
    ? { ...transport.limits, requestTimeoutMs: Math.min(transport.limits.requestTimeoutMs, 2_000) }
    : transport.limits
  const outcome = await boundedRequest(url, { ...request, declares429 }, limits)
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
    if (transport.failuresInARow >= failuresBeforeDown) transport.down ??= violation
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
    await judge(
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

/** Judges the exchange by every rule a response must keep, whatever the check wants of it. */
async function judge(
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
  // A response to another spelling of the path, or to another method, says nothing about the operation's
  // own statuses.
  if (params.intent !== 'no-data' && params.intent !== 'unsupported-method') {
    exchange.pair = `${operation.id} ${response.status}`
    recorder.seen.add(exchange.pair)
  }
  if (tooLarge !== undefined) {
    exchange.violations.push({
      rule: 'response-too-large',
      operation: operation.id,
      where: 'response bodies',
      message: `${request.method} ${request.url}: ${tooLarge}; the contract's bodies are small JSON documents.`,
      exchange: describeExchange(exchange),
    })
    return
  }
  // A read that breaks the schema while creates are in flight may show a pet one of them stored wrong before
  // its 201 was judged: that first verdict is tentative; once their verdicts are in, the read is judged again.
  const tentative = response.status === 200 && transport.creates.size > 0
  judgeResponse(exchange, operation, params, recorder, { ...transport, tentative })
  if (
    tentative &&
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
  // Judged, its value kept: the check needs no more of its text than a report shows.
  if ('json' in exchange) releaseJudgedBody(exchange.response)
  await traceServerErrors(transport, exchange, operation, params, at)
}

/** What a check's recorder keeps of an exchange for its report: all but the body's value, and 4 KiB of its text. */
export type RecordedExchange = Omit<Exchange, 'json'>

/**
 * Records the exchange in its place among the check's, and returns how to turn that entry into what the
 * check's report needs once judging is over. The record holds no parsed value and only the start of the
 * body: the check holds what it needs of the exchange itself for as long as it needs it, and a check that
 * makes hundreds of requests (the stateful model) must not hold hundreds of bodies until it ends.
 */
function record(recorder: Recorder, exchange: Exchange): () => void {
  const at = recorder.exchanges.push(exchange) - 1
  return () => {
    recorder.exchanges[at] = recordOf(exchange)
  }
}

export function recordOf(exchange: Exchange): RecordedExchange {
  const { json: _value, response, ...kept } = exchange
  const start = { ...response }
  releaseJudgedBody(start)
  return { ...kept, response: start }
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

function judgeableThroughPrism(body: string): boolean {
  const parsed = parseJson(body)
  return parsed !== undefined && !containsBigInt(parsed)
}
