// A JSON body: application/json, or a structured +json type (RFC 6839 §3.1), parameters allowed.
const jsonMediaType = /^application\/([\w.+-]+\+)?json\s*(;|$)/i

/**
 * Whether a Content-Type names JSON, the contract's only body format.
 * @example isJsonMediaType('application/problem+json; charset=utf-8') // true
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return jsonMediaType.test(contentType ?? '')
}
