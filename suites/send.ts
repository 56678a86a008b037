import { Agent, request } from 'undici'
import { contract } from '../contract/index.ts'
import { parseViolations } from '../mocks/prism/sl-violations.ts'
import { CheckFailure, type Exchange } from './exchange.ts'
import { unsafeIntegers } from './raw-integers.ts'
import type { ConformanceTarget } from './target.ts'

/**
 * What the request is meant to be, which decides what a conforming answer is:
 * - `valid`: conforms to the contract; the answer's status must be one the operation declares;
 * - `invalid`: breaks the contract's own constraints; any 4xx with an Error body, an undeclared one
 *   being a warning (the contract does not say which 4xx);
 * - `unauthorized`: no or a bad API key; 401 with an Error body (Authentication §3).
 */
export type Intent = 'valid' | 'invalid' | 'unauthorized'

export interface SendOptions {
  intent: Intent
  /** Replaces the `Authorization` header; `null` sends none. Default: `Bearer <api key>`. */
  authorization?: string | null
  /** Raw body text, sent with `Content-Type: application/json`. */
  body?: string
  headers?: Record<string, string>
}

export interface Recorder {
  exchanges: Exchange[]
  warnings: string[]
  /** `operation status` pairs seen, for the coverage check. */
  seen: Set<string>
}

// One connection pool per process: checks run concurrently against the same server.
const agent = new Agent({
  connections: 16,
  keepAliveTimeout: 10_000,
  headersTimeout: 15_000,
  bodyTimeout: 15_000,
})
const jsonType = /^application\/([\w.+-]+\+)?json\s*(;|$)/i

/**
 * Sends one request to the target and applies every response check the contract implies for it.
 * Throws a CheckFailure naming the first broken rule; records warnings and coverage either way.
 */
export async function send(
  target: ConformanceTarget,
  recorder: Recorder,
  operationId: string,
  method: string,
  path: string,
  options: SendOptions,
): Promise<Exchange> {
  const operation = contract.operation(operationId)
  // Prism's proxy answers a body that is not JSON itself (its own 400) instead of forwarding it, so such
  // requests go straight to the server: otherwise the server would be judged on Prism's answer.
  const viaPrism =
    target.prismUrl !== undefined &&
    !(options.body !== undefined && options.body !== '' && !parses(options.body))
  const url = `${viaPrism ? target.prismUrl : target.baseUrl}${path}`
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  const authorization =
    options.authorization === undefined ? `Bearer ${target.apiKey}` : options.authorization
  if (authorization !== null) headers.authorization = authorization
  if (options.body !== undefined) headers['content-type'] ??= 'application/json'

  let exchange: Exchange
  try {
    const response = await request(url, {
      dispatcher: agent,
      method: method as 'GET',
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
    })
    const body = await response.body.text()
    const responseHeaders = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(', ') : String(value ?? ''),
      ]),
    )
    exchange = {
      operation: operation.id,
      request: { method, url, headers, ...(options.body === undefined ? {} : { body: options.body }) },
      response: { status: response.statusCode, headers: responseHeaders, body },
      ...(viaPrism ? { prismViolations: parseViolations(responseHeaders['sl-violations']) } : {}),
    }
  } catch (error) {
    throw new CheckFailure(`${method} ${url} got no response: ${(error as Error).message}`)
  }
  recorder.exchanges.push(exchange)
  recorder.seen.add(`${operation.id} ${exchange.response.status}`)
  checkResponse(exchange, options.intent, recorder)
  return exchange
}

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

function checkResponse(exchange: Exchange, intent: Intent, recorder: Recorder): void {
  const operation = contract.operation(exchange.operation)
  const { status, headers, body } = exchange.response
  const fail = (message: string) => {
    throw new CheckFailure(message, [exchange])
  }
  const declared = operation.responses.find((response) => response.status === String(status))
  const name = `${operation.method} ${operation.path}`

  if (status >= 500) fail(`${name} answered ${status}: a server error, never acceptable for any request.`)
  if (intent === 'unauthorized' && status !== 401) {
    fail(`${name} without a valid API key answered ${status}; the contract requires 401.`)
  }
  if (intent === 'invalid') {
    if (status < 400 || status > 499)
      fail(`${name} accepted a request that breaks the contract: ${status}, expected a 4xx.`)
    if (operation.declaresResponses && !declared) {
      recorder.warnings.push(
        `${name} answered an invalid request with ${status}, which the contract does not declare for it.`,
      )
    }
  }
  if (intent === 'valid' && operation.declaresResponses && !declared) {
    fail(
      `${name} answered ${status}, which the contract does not declare (it declares ${operation.responses.map((r) => r.status).join(', ')}).`,
    )
  }

  // Which schema the body must match: the declared one, else (an error the contract leaves open) Error.
  const isError = status >= 400
  const schemaDeclared = declared?.schemaPointer !== undefined
  if (schemaDeclared || isError) {
    if (!jsonType.test(headers['content-type'] ?? '')) {
      fail(
        `${name} ${status} has Content-Type "${headers['content-type'] ?? ''}"; the contract's bodies are application/json.`,
      )
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      fail(`${name} ${status} body is not JSON.`)
    }
    const validation = schemaDeclared
      ? contract.validateResponseBody(operation.id, status, parsed)
      : contract.validateSchema('Error', parsed)
    if (!validation.ok) {
      fail(
        `${name} ${status} body breaks the contract: ${validation.errors.map((error) => error.message).join('; ')}.`,
      )
    }
    if (isError && (parsed as { status?: unknown }).status !== status) {
      fail(
        `${name} ${status} Error body says status ${JSON.stringify((parsed as { status?: unknown }).status)}; it must equal the HTTP status.`,
      )
    }
    const unsafe = unsafeIntegers(body)
    if (unsafe.length > 0) {
      fail(
        `${name} ${status} body holds integers beyond 2^53 (${unsafe.slice(0, 3).join(', ')}): JSON clients cannot read them exactly.`,
      )
    }
  }

  for (const header of declared?.headers ?? []) {
    const value = headers[header.name]
    if (value === undefined) {
      if (header.required) fail(`${name} ${status} lacks the required header ${header.name}.`)
      continue
    }
    const validation = contract.validateResponseHeader(operation.id, status, header.name, value)
    if (!validation.ok)
      fail(
        `${name} ${status} header ${header.name}: ${validation.errors.map((error) => error.message).join('; ')}.`,
      )
  }

  for (const violation of exchange.prismViolations ?? []) {
    const where = violation.location.join('.')
    const expected = intent !== 'valid' && violation.location[0] === 'request'
    if (expected) continue
    if (violation.severity === 'Error')
      fail(`Prism's proxy found a violation at ${where}: ${violation.message}`)
    recorder.warnings.push(`Prism's proxy warns at ${where}: ${violation.message}`)
  }
}
