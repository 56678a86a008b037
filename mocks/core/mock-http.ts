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
}

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
