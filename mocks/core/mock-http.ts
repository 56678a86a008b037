// The plain request and response every adapter exchanges with the core, free of any runtime's types.
import { stringifyExactJson } from '../../contract/exact-json.ts'
/** A request as every adapter hands it to the core: plain data, no streams, no runtime types. */
export interface MockRequest {
  method: string
  /** The URL path, percent-encoded as received, e.g. `/v1/pets/12`. */
  path: string
  /** The raw query string without `?`, e.g. `limit=5&status=sold`. */
  query: string
  /** Header names in lower case. */
  headers: Record<string, string | undefined>
  /** The body as text, or undefined when there was none. */
  body?: string
}

/** A response as the core returns it; adapters copy it onto their runtime's response. */
export interface MockResponse {
  status: number
  headers: Record<string, string>
  /** JSON text, or undefined for a response without a body. */
  body?: string
  /** Wait this many ms before answering (latency); absent means at once. */
  delayMs?: number
  /**
   * A fault the adapter carries out instead of answering normally: `reset` drops the connection (status
   * is 0, as fetch's `Response.error()`), `timeout` never answers (status 0), `truncate` sends the status,
   * the headers and `truncatedBytes(body)`, then drops the connection. 5xx faults are plain answers.
   */
  fault?: NetworkFault
}

/** The faults an adapter carries out on its transport (see conditions.ts for all kinds). */
type NetworkFault = 'reset' | 'timeout' | 'truncate'

/**
 * The headers of a JSON response with no others: one shared object, never modified, so an adapter can
 * recognise it and write it without copying (serve-http.ts).
 */
export const jsonHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
})

/** A JSON response. */
export function jsonResponse(status: number, value: unknown, headers?: Record<string, string>): MockResponse {
  return {
    status,
    headers:
      headers === undefined ? jsonHeaders : Object.assign({ 'content-type': 'application/json' }, headers),
    body: stringifyExactJson(value),
  }
}
