// A JSON body: application/json, or a structured +json type (RFC 6839 §3.1), parameters allowed.
const jsonMediaType = /^application\/([\w.+-]+\+)?json\s*(;|$)/i

/**
 * Whether a Content-Type names JSON, the contract's only body format.
 * @example isJsonMediaType('application/problem+json; charset=utf-8') // true
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return jsonMediaType.test(contentType ?? '')
}

/**
 * The media type of a Content-Type without its parameters, lower-cased (RFC 9110 §8.3.1: type and subtype
 * are case-insensitive), or '' when there is none.
 * @example mediaTypeEssence('Application/JSON; charset=utf-8') // 'application/json'
 */
export function mediaTypeEssence(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}
