import { containsBigInt, parseExactJson } from '../contract/exact-json.ts'
import { contract } from '../contract/index.ts'
import { isJsonMediaType, mediaTypeEssence } from '../contract/json-media-type.ts'
import { isRecord } from '../contract/openapi-document.ts'
import type { Operation } from '../contract/operations.ts'
import type { NewPet } from '../contract/types.ts'
import { parseViolations } from '../mocks/prism/sl-violations.ts'
import { boundedRequest, type RequestLimits } from './bounded-request.ts'
import {
  CheckBlocked,
  CheckFailure,
  describeExchange,
  type Exchange,
  RunDeadlineReached,
} from './exchange.ts'
import { schemaWhere, type Violation } from './findings.ts'
import { jsonTextFault } from './json-text-faults.ts'
import { parseJson } from './parse-json.ts'
import { changedFields, changedValue, differences } from './pet-differences.ts'
import { prismRounded } from './prism-rounded.ts'
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
  exchanges: Exchange[]
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
  /** Creates still waiting for their answer: a read that shows their pets waits for their verdict. */
  creates: Set<Promise<unknown>>
}

// Three silent requests in a row: the server has stopped answering, and waiting on every further request
// would only multiply one defect by the number of checks and the deadline.
const failuresBeforeDown = 3

/** The method and path of an operation with its parameters filled in, from the contract. */
export function requestLine(operation: Operation, params: Pick<SendParams, 'path' | 'query' | 'rawPath'>) {
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
    recorder.exchanges.push(exchange)
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
  const { response } = outcome
  const exchange: Exchange = {
    operation: operation.id,
    request,
    response,
    violations: [],
    bodyUsable: outcome.ok,
    ...(viaPrism ? { prismViolations: parseViolations(response.headers['sl-violations']) } : {}),
  }
  recorder.exchanges.push(exchange)
  // A response to another spelling of the path, or to another method, says nothing about the operation's
  // own statuses.
  if (params.intent !== 'no-data' && params.intent !== 'unsupported-method') {
    exchange.pair = `${operation.id} ${response.status}`
    recorder.seen.add(exchange.pair)
  }
  if (!outcome.ok) {
    exchange.violations.push({
      rule: 'response-too-large',
      operation: operation.id,
      where: 'response bodies',
      message: `${method} ${url}: ${outcome.message}; the contract's bodies are small JSON documents.`,
      exchange: describeExchange(exchange),
    })
    return exchange
  }
  judgeResponse(exchange, operation, params, recorder, transport.storedWrong)
  // A read that breaks the schema while creates are in flight may show a pet one of them stored wrong before
  // its 201 was judged: wait for their verdicts, then judge the read again.
  if (
    response.status === 200 &&
    transport.creates.size > 0 &&
    exchange.violations.some((violation) => violation.rule === 'body-schema')
  ) {
    await Promise.allSettled([...transport.creates])
    exchange.violations = []
    exchange.bodyUsable = true
    judgeResponse(exchange, operation, params, recorder, transport.storedWrong)
  }
  judgePrism(exchange, operation, recorder)
  return exchange
}

function judgeableThroughPrism(body: string): boolean {
  const parsed = parseJson(body)
  return parsed !== undefined && !containsBigInt(parsed)
}

/** The rules every response must keep, whichever check sent the request. */
function judgeResponse(
  exchange: Exchange,
  operation: Operation,
  params: SendParams,
  recorder: Recorder,
  storedWrong: Map<string, Violation>,
): void {
  const { status, headers, body } = exchange.response
  const name = `${exchange.request.method} ${operation.path}`
  const violate = (rule: Violation['rule'], where: string, message: string) =>
    exchange.violations.push({
      rule,
      operation: operation.id,
      where,
      message,
      exchange: describeExchange(exchange),
    })
  const declared = declaredResponse(operation, status)
  const { intent } = params

  // An operation whose responses the contract does not define (GET /store/orders) may say it is not
  // implemented: that is the server's honest answer to an open contract, not a server error.
  if (status === 501 && !operation.declaresResponses && intent === 'valid') {
    recorder.warnings.push(
      `${name} answered 501 with a valid key: the server declares it unimplemented (the contract defines none of its responses).`,
    )
    return
  }
  // A wrong status is the root cause: judging that response's body against the status's schema would only
  // report the same defect again.
  const broken = statusViolation(operation, status, declared !== undefined, params)
  if (broken) {
    violate(...broken)
    exchange.bodyUsable = false
    return
  }
  if (intent === 'no-data') return
  // Nothing but "no server error" is defined for an operation that declares no responses.
  if (!operation.declaresResponses && intent === 'valid') return
  if (
    (intent === 'invalid' || intent === 'no-such-pet') &&
    status >= 400 &&
    operation.declaresResponses &&
    !declared
  )
    recorder.advice.push(
      `${name} answers invalid requests with ${status}, which the contract does not declare for it: declare ${status} with the Error body, so clients and tools know it.`,
    )

  // Which schema the body must match: the declared one, else (an error the contract leaves open) Error.
  const isError = status >= 400
  const schemaDeclared = declared?.schemaPointer !== undefined
  const bodyWhere = isError ? 'Error responses' : `${operation.id} ${status}`
  if (schemaDeclared || isError) {
    const contentType = headers['content-type'] ?? ''
    const notJsonType = !isJsonMediaType(contentType)
    if (notJsonType) {
      violate(
        'content-type',
        bodyWhere,
        `${name} ${status} has Content-Type "${contentType}"; the contract's bodies are application/json.`,
      )
    } else if (mediaTypeEssence(contentType) !== declaredMediaType) {
      // JSON, but not the type declared (Schemathesis' content_type_conformance). For data a failure: a
      // client dispatching on the declared type does not read it. For an Error, a warning: frameworks send
      // RFC 9457's application/problem+json for errors by default, the Error schema is still held, and
      // every JSON client parses a +json type (RFC 6839 §3.1); the contract's owner may declare it.
      if (isError)
        recorder.warnings.push(
          `Error responses come as ${mediaTypeEssence(contentType)}; the contract declares ${declaredMediaType}: send that, or declare ${mediaTypeEssence(contentType)} in the contract.`,
        )
      else
        violate(
          'content-type',
          bodyWhere,
          `${name} ${status} has Content-Type "${contentType}"; the contract declares ${declaredMediaType} (parameters such as charset are fine).`,
        )
    }
    let parsed: unknown
    try {
      // int64 values beyond 2^53 are read exactly (bigints): JSON.parse would round them.
      parsed = parseExactJson(body)
      exchange.json = parsed
    } catch {
      exchange.bodyUsable = false
      // A body in another format under another media type (a gateway's HTML page) is one defect, already
      // reported as the Content-Type; a cause every body shares (a byte-order mark) is reported as that cause.
      if (notJsonType) return
      const fault = jsonTextFault(body)
      violate(
        'body-schema',
        fault?.where ?? `${bodyWhere} body is not JSON`,
        `${name} ${status} body is not JSON.${fault ? ` ${fault.message}` : ''}`,
      )
      return
    }
    // They conform (int64 is 64 bits); a frontend reading them with JSON.parse gets other numbers.
    if (containsBigInt(parsed)) recorder.notes.push(javascriptRounding)
    const validate = (body: unknown) =>
      schemaDeclared
        ? contract.validateResponseBody(operation.id, status, body)
        : contract.validateSchema('Error', body)
    // Through Prism, int64s beyond 2^53 arrive rounded to doubles; the bounds themselves as ±2^63.
    let validation = validate(exchange.prismViolations ? prismRounded(parsed) : parsed)
    // A create's 201 shows what was stored. A sent value that comes back changed is the root cause, found
    // here at the create; its schema is judged on what the server should have echoed, so a value changed
    // out of range (2^63−1 rounded to 2^63) is not reported twice.
    const changed =
      (intent === 'valid' || intent === 'valid-or-refused') && status === 201
        ? changedOnCreate(params.body, parsed)
        : undefined
    if (changed) {
      violate('changed-value', changedValue.where, `${name}: ${changed.differences.join('; ')}.`)
      exchange.bodyUsable = false
      const root = exchange.violations.at(-1) as Violation
      const id = (parsed as { id?: unknown }).id
      if (id !== undefined) storedWrong.set(String(id), root)
      validation = validate(changed.asSent)
    }
    // Reads of pets stored wrong break the schema through them alone: affected by that finding, not new ones.
    if (!validation.ok && storedWrong.size > 0 && status === 200) {
      const affected = readsOf(parsed, storedWrong)
      if (affected && (affected.without === null || validate(affected.without).ok)) {
        exchange.affectedBy = affected.by
        validation = { ok: true, value: parsed }
      }
    }
    const errors = validation.ok ? [] : validation.errors
    if (!validation.ok) exchange.bodyUsable = false
    // One body is one violation, however many fields it gets wrong: `{}` for a Pet is one defect.
    const [first] = errors
    if (first)
      violate(
        'body-schema',
        schemaWhere(first.message),
        `${name} ${status} body breaks the contract: ${errors.map((error) => error.message).join('; ')}.`,
      )
    if (validation.ok && isError && (parsed as { status?: unknown }).status !== status) {
      violate(
        'error-status',
        'Error status field',
        `${name} ${status} Error body says status ${JSON.stringify((parsed as { status?: unknown }).status)}; it must equal the HTTP status.`,
      )
    }
  }

  for (const header of declared?.headers ?? []) {
    const value = headers[header.name]
    // Prism's proxy adds `Deprecation: true` (an early draft's form) to deprecated operations when the
    // server sends none: through Prism, that value is Prism's, not the server's.
    if (exchange.prismViolations && header.name === 'deprecation' && value === 'true') {
      recorder.notes.push(
        'Through Prism, GET /pets/{petId} carries `Deprecation: true`, which Prism adds when the server sends no Deprecation header; it is not judged.',
      )
      continue
    }
    if (value === undefined) {
      if (header.required)
        violate(
          'header',
          `header ${header.name}`,
          `${name} ${status} lacks the required header ${header.name}.`,
        )
      continue
    }
    const validation = contract.validateResponseHeader(operation.id, status, header.name, value)
    if (!validation.ok)
      violate(
        'header',
        `header ${header.name}`,
        `${name} ${status} header ${header.name}: ${validation.errors.map((error) => error.message).join('; ')}.`,
      )
  }
}

/** What a create's 201 changed of the fields it was sent, and the body as it should have been. */
function changedOnCreate(sentText: string | undefined, served: unknown) {
  const sent = parseJson(sentText)
  if (!isRecord(sent) || !isRecord(served)) return undefined
  const fields = changedFields(sent as NewPet, served)
  if (fields.length === 0) return undefined
  return {
    differences: differences(sent as NewPet, served),
    asSent: { ...served, ...Object.fromEntries(fields.map((field) => [field, sent[field]])) },
  }
}

/** A read's body without the pets stored wrong, and the finding of the first of them, if it holds any. */
function readsOf(body: unknown, storedWrong: Map<string, Violation>) {
  const wrong = (pet: unknown) => (isRecord(pet) ? storedWrong.get(String(pet.id)) : undefined)
  if (Array.isArray(body)) {
    const by = body.map(wrong).find((violation) => violation !== undefined)
    return by && { by, without: body.filter((pet) => wrong(pet) === undefined) }
  }
  const by = wrong(body)
  // One pet, stored wrong: nothing else in the body to judge.
  return by && { by, without: null }
}

// The contract's only body type: an operation's `schemaPointer` is the schema of its application/json content.
const declaredMediaType = 'application/json'

const javascriptRounding =
  'The server sends int64 values beyond 2^53 (valid: int64 is 64 bits). JavaScript clients that read them with JSON.parse get them rounded; such clients need a lossless JSON parser, or the API a narrower range.'

/** The rule a response's status alone breaks, given what the request was meant to be. */
function statusViolation(
  operation: Operation,
  status: number,
  declared: boolean,
  { intent, fault }: SendParams,
): [Violation['rule'], string, string] | undefined {
  const name = `${operation.method} ${operation.path}`
  if (status >= 500)
    return [
      'server-error',
      `${name} answers 5xx`,
      `${name} answered ${status}: a server error, never acceptable for any request.`,
    ]
  if (intent === 'unauthorized' && status !== 401)
    return [
      'auth',
      fault ?? 'requests without a valid key',
      `${name} with ${fault ?? 'no valid API key'} answered ${status}; the contract requires 401.`,
    ]
  if (intent === 'no-data' && status >= 200 && status < 300)
    return [
      'auth',
      fault ?? 'a spelling of the path without a key',
      `${name} spelled differently and sent without a key answered ${status}: data without a key.`,
    ]
  if (intent === 'unsupported-method' && status >= 200 && status < 400)
    return [
      'unsupported-method',
      // One text for every path: a router that ignores methods does so everywhere, one defect.
      'methods the contract does not declare are served',
      `${fault ?? 'A method the contract does not declare'} ${operation.path} answered ${status}; the contract declares no such operation there, so it must be refused (405 with Allow, RFC 9110 §15.5.6).`,
    ]
  if (intent === 'invalid' && (status < 400 || status > 499))
    return [
      'invalid-accepted',
      `${operation.id} ${fault ?? 'invalid request'}`,
      `${name} accepted a request that breaks the contract (${fault ?? 'invalid'}): ${status}, expected a 4xx.`,
    ]
  // Where the contract names the status for this very situation, another 4xx breaks it; elsewhere the
  // contract leaves the 4xx open (an undeclared one is advice for the contract, not a finding).
  const held = heldStatus(operation, intent, fault)
  if (held && status >= 400 && status <= 499 && status !== held.status)
    return [
      'wrong-status',
      held.where,
      `${name} answered ${status} to ${held.situation}${fault ? ` (${fault})` : ''}; the contract declares ${held.status} for ${held.situation}.`,
    ]
  if (
    (intent === 'valid' || (intent === 'valid-or-refused' && status < 400)) &&
    operation.declaresResponses &&
    !declared
  )
    return [
      'undeclared-status',
      `${operation.id} answers ${status}`,
      `${name} answered ${status} to a valid request; the contract declares ${operation.responses.map((r) => r.status).join(', ')}.`,
    ]
  return undefined
}

/**
 * The status the contract declares for the situation a request was made to show, if it declares one:
 * 400 for a createPet body that is missing required fields or holds invalid values, 404 for an id no pet
 * has. Read from the operation's declared responses, so an operation without them holds nothing.
 */
function heldStatus(
  operation: Operation,
  intent: Intent,
  fault: string | undefined,
): { status: number; situation: string; where: string } | undefined {
  if (intent === 'invalid' && fault?.startsWith('body') && declaredResponse(operation, 400))
    return { status: 400, situation: 'invalid bodies', where: `${operation.id} invalid bodies` }
  if (intent === 'no-such-pet' && declaredResponse(operation, 404))
    return { status: 404, situation: 'an id no pet has', where: `${operation.id} unknown id` }
  return undefined
}

function declaredResponse(operation: Operation, status: number) {
  const code = String(status)
  return operation.responses.find((response) => response.status === code)
}

/**
 * Prism's violations, each checked against the response itself. One the response disproves (Prism 5.14
 * reports an absent optional header as a pattern mismatch, say) becomes a note about Prism; one the suite's
 * own checks already explain adds nothing; any other is a finding of its own.
 */
function judgePrism(exchange: Exchange, operation: Operation, recorder: Recorder): void {
  for (const violation of exchange.prismViolations ?? []) {
    const [side, part, headerName] = violation.location
    const where = violation.location.join('.')
    // The suite sends invalid requests on purpose; Prism's opinion of those is not the server's fault.
    if (side !== 'response') continue
    // Prism 5.14 names the place `header` (singular); `headers` is accepted in case a release fixes it.
    if ((part === 'header' || part === 'headers') && headerName !== undefined) {
      const sent = exchange.response.headers[headerName.toLowerCase()]
      // `Deprecation: true` is Prism's own addition when the server sends none (see judgeResponse).
      const value = headerName.toLowerCase() === 'deprecation' && sent === 'true' ? undefined : sent
      const declared = declaredResponse(operation, exchange.response.status)?.headers.find(
        (header) => header.name === headerName.toLowerCase(),
      )
      const disproved =
        (value === undefined && declared !== undefined && !declared.required) ||
        (value !== undefined &&
          declared !== undefined &&
          contract.validateResponseHeader(operation.id, exchange.response.status, headerName, value).ok)
      if (disproved) {
        recorder.notes.push(
          `Prism reported "${violation.message}" at ${where}, but the response ${value === undefined ? 'does not send that optional header' : `sends a valid value (${value})`}: a Prism false positive, ignored.`,
        )
        continue
      }
    }
    if (part === 'body' && exchange.bodyUsable && exchange.violations.length === 0) {
      recorder.notes.push(
        `Prism reported "${violation.message}" at ${where}, but the body validates against the contract's schema: ignored.`,
      )
      continue
    }
    if (exchange.violations.length > 0) continue
    if (violation.severity !== 'Error') {
      recorder.warnings.push(`Prism's proxy warns at ${where}: ${violation.message}`)
      continue
    }
    exchange.violations.push({
      rule: 'prism',
      operation: operation.id,
      where: `Prism: ${where} ${violation.message}`,
      message: `Prism's validating proxy found a violation at ${where}: ${violation.message}`,
      exchange: describeExchange(exchange),
    })
  }
}
