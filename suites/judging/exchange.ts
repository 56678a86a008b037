import { clip } from '../output/clip.ts'
import { redactedMarker } from '../output/secrets.ts'
import type { RuleId, Violation } from './findings.ts'
import { parseJson } from './parse-json.ts'

/** A response as the suite received it: header names in lower case, the body decoded to text. */
export interface Received {
  status: number
  headers: Record<string, string>
  body: string
  /** The body's length when only its start is kept (once judged, see response-body.ts). */
  bodyLength?: number
  /**
   * The connection it came on (connection-watch.ts): a response on one later found desynced may be another
   * request's. The suite's own bookkeeping, never shown in a report.
   */
  connection?: number
}

/** One request the suite sent and what came back, kept for the report of the check that sent it. */
export interface Exchange {
  /** The contract operation the request was aimed at (`listPets`, or `GET /store/orders`). */
  operation: string
  request: { method: string; url: string; headers: Record<string, string>; body?: string }
  response: Received
  /** Rules the response broke whatever the check wanted of it (status, Content-Type, schema, headers). */
  violations: Violation[]
  /** False when the body cannot be used: not JSON, or not the declared schema. */
  bodyUsable: boolean
  /** The body as JSON, once judging has parsed it (so that checks do not parse it again). */
  json?: unknown
  /**
   * Set when the body breaks a rule only through pets an earlier create already stored wrong: the check is
   * affected by that finding (reported once, at the create), not failed again.
   */
  affectedBy?: Violation
  /**
   * How many records of a list were left out of `json` as known broken (each named in its finding): the
   * page as the server sent it was that much longer, which decides whether it was full.
   */
  setAside?: number
  /**
   * The `operation status` pair it exercised, as coverage counts it (`listPets 200`); none for another
   * spelling of the path or a request that got no answer.
   */
  pair?: string
  /** Violations Prism's proxy listed in `sl-violations` (only with --via-prism). */
  prismViolations?: { location: string[]; severity: string; message: string }[]
}

/** What a check found wrong with the server: the check's own purpose failed. */
export class CheckFailure extends Error {
  override name = 'CheckFailure'
  readonly violation: Violation
  readonly exchange: Exchange | undefined
  constructor(violation: Violation, exchange?: Exchange) {
    super(violation.message)
    this.violation = violation
    this.exchange = exchange
  }
}

/** The check stopped because something it relies on is already a finding (its own or a shared step's). */
export class CheckBlocked extends Error {
  override name = 'CheckBlocked'
  readonly violation: Violation
  constructor(violation: Violation) {
    super(`blocked by ${violation.rule}: ${violation.where}`)
    this.violation = violation
  }
}

/** A check that cannot run against this target (say, read-only with no pets); reported as skipped. */
export class CheckSkipped extends Error {
  override name = 'CheckSkipped'
}

/** The run's deadline passed while the check was still waiting on the server. */
export class RunDeadlineReached extends Error {
  override name = 'RunDeadlineReached'
}

/** What a failed expectation is about: the rule, where, and the operation (default: the exchange's). */
export interface Expectation {
  rule: RuleId
  where: string
  operation?: string
}

/**
 * Fails the check unless `condition` holds: the check's purpose is not met, and `message` says how.
 * @example ensure(found.response.status === 404, { rule: 'wrong-status', where: 'getPet unknown id' }, 'GET ... answered 200', found)
 */
export function ensure(
  condition: unknown,
  expectation: Expectation,
  message: string,
  exchange?: Exchange,
): asserts condition {
  if (condition) return
  throw new CheckFailure(
    {
      rule: expectation.rule,
      operation: expectation.operation ?? exchange?.operation ?? '',
      where: expectation.where,
      message,
      ...(exchange ? { exchange: describeExchange(exchange) } : {}),
    },
    exchange,
  )
}

/** The exchange as a person reads it in a report: the request sent, the response received. */
export function describeExchange(exchange: Exchange, maxBody = 2000): string {
  const headers = (all: Record<string, string>) =>
    Object.entries(all)
      .map(([name, value]) => `  ${name}: ${name === 'authorization' ? redact(value) : value}`)
      .join('\n')
  const request = exchange.request
  return [
    `> ${request.method} ${request.url}`,
    headers(request.headers),
    ...(request.body === undefined ? [] : [`  ${clip(request.body, maxBody)}`]),
    `< ${exchange.response.status}`,
    headers(exchange.response.headers),
    `  ${clip(exchange.response.body, maxBody, exchange.response.bodyLength)}`,
  ]
    .filter((line) => line !== '')
    .join('\n')
}

/** Where a replayed request goes, and the key it must not print. */
export interface ReplayTarget {
  baseUrl: string
  apiKey: string
  /** Prism's proxy, gone once the run ends: a request sent through it is replayed against the server. */
  prismUrl?: string
}

/**
 * The request as a curl command a person can paste into a shell (sh, bash, zsh) to see the answer again. The API key is
 * read from `$CONFORMANCE_API_KEY`, never written out; everything else is quoted byte for byte (`-g` and
 * `--path-as-is` keep curl from rewriting brackets and dot segments the suite sent on purpose).
 * @example replayCommand({ method: 'GET', url: 'http://h/v1/pets?limit=0', headers: {} }, target)
 * // curl -i -g --path-as-is 'http://h/v1/pets?limit=0'
 */
export function replayCommand(request: Exchange['request'], target: ReplayTarget): string {
  const quote = shellQuoter(target.apiKey)
  const url =
    target.prismUrl && request.url.startsWith(target.prismUrl)
      ? `${target.baseUrl}${request.url.slice(target.prismUrl.length)}`
      : request.url
  const body = request.body
  // A shell argument cannot carry a NUL byte: such a body goes through printf's octal escape instead.
  const piped = body?.includes('\0') === true
  const lines = [
    `curl -i -g --path-as-is${request.method === 'GET' ? '' : ` -X ${request.method}`} ${quote(url)}`,
    // curl drops a header given as `name:` with nothing after it; `name;` sends it empty.
    ...Object.entries(request.headers).map(
      ([name, value]) => `  -H ${quote(value.trim() === '' ? `${name};` : `${name}: ${value}`)}`,
    ),
    ...(body === undefined ? [] : piped ? ['  --data-binary @-'] : [`  --data-raw ${quote(body)}`]),
  ]
  const command = lines.join(' \\\n')
  if (!piped || body === undefined) return command
  const escaped = body.replaceAll('\\', '\\\\').replaceAll('%', '%%').replaceAll('\0', '\\000')
  return `printf ${quote(escaped)} |\n${command}`
}

/**
 * Single-quotes text for a POSIX shell, writing the API key, and the near-miss spellings of it the auth
 * checks send (other letter case, a character short, its first half), as expansions of
 * `$CONFORMANCE_API_KEY` (plain sh: bash 3.2, macOS's, has no case-changing expansions).
 */
function shellQuoter(apiKey: string): (text: string) => string {
  const key = '"$CONFORMANCE_API_KEY"'
  const swapped = [...apiKey].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')
  const half = Math.ceil(apiKey.length / 2)
  const forms: [string, string][] = [
    [apiKey, key],
    [apiKey.toUpperCase(), `"$(printf %s ${key} | tr a-z A-Z)"`],
    [apiKey.toLowerCase(), `"$(printf %s ${key} | tr A-Z a-z)"`],
    [swapped, `"$(printf %s ${key} | tr a-zA-Z A-Za-z)"`],
    [apiKey.slice(0, -1), `"\${CONFORMANCE_API_KEY%?}"`],
    [apiKey.slice(1), `"\${CONFORMANCE_API_KEY#?}"`],
    [apiKey.slice(0, half), `"$(printf %.${half}s ${key})"`],
  ]
  const secrets = forms.filter(
    ([form], index) => form.length >= 2 && forms.findIndex(([other]) => other === form) === index,
  )
  const literal = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`
  return (text) => {
    let parts: (string | { expansion: string })[] = [text]
    for (const [form, expansion] of secrets)
      parts = parts.flatMap((part) =>
        typeof part === 'string'
          ? part.split(form).flatMap((piece, index) => (index === 0 ? [piece] : [{ expansion }, piece]))
          : [part],
      )
    return (
      parts
        .filter((part) => part !== '')
        .map((part) => (typeof part === 'string' ? literal(part) : part.expansion))
        .join('') || "''"
    )
  }
}

// Reports end up in CI logs: no character of a credential is printed, only its scheme.
function redact(value: string): string {
  if (value.trim() === '') return value
  const [scheme, key] = value.split(/\s+/, 2)
  return key === undefined ? redactedMarker : `${scheme} ${redactedMarker}`
}

/** The exchange's body as JSON: parsed once, when it was judged, else now (undefined if it is not JSON). */
export function jsonOf(exchange: Exchange): unknown {
  return 'json' in exchange ? exchange.json : parseJson(exchange.response.body)
}
