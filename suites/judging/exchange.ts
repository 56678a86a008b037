// The judged record of one request: what was sent, what came back, and what it broke.
import type { Received } from '../network/index.ts'
import { clip, redactedMarker } from '../output/index.ts'
import type { Violation } from './findings.ts'
import { parseJson } from './parse-json.ts'

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
