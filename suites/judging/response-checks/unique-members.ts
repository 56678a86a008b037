// The response check that each object of a body names each member once (RFC 8259 §4): a policy rule.
import type { ResponseCheck } from './judging.ts'

/**
 * Each object of a body names each member once. RFC 8259 §4: "The names within an object SHOULD be
 * unique", and with repeated names "the behavior of software that receives such an object is
 * unpredictable": JSON.parse (and so this suite's reading) keeps the last value, other parsers keep the
 * first, strict ones refuse the body. I-JSON (RFC 7493 §2.3) says MUST NOT, but the contract does not name
 * I-JSON: a policy rule. The body was scanned as it was read (network/json-body-scan.ts); only a body the
 * schema check read as JSON is judged, so a body that is not JSON stays that one finding. It stops nothing:
 * the other checks judge the value as the suite read it.
 */
export const uniqueMembersCheck: ResponseCheck = {
  name: 'unique member names',
  rules: ['duplicate-member'],
  judge({ exchange, name, violate }) {
    const duplicate = exchange.response.duplicateMember
    if (duplicate === undefined || !('json' in exchange)) return undefined
    const member = JSON.stringify(duplicate.name)
    violate(
      'duplicate-member',
      // One serialiser writes the member twice in every body that holds it: one finding, whatever the
      // operation, status or list position.
      `response bodies name the member ${member} twice in one object`,
      `${name} ${exchange.response.status} body names the member ${member} twice in one object (at ${duplicate.at}). The suite read the last value, as JSON.parse does; a client that keeps the first value reads other data, and one that refuses repeated names (serde's derived structs; Jackson with STRICT_DUPLICATE_DETECTION, System.Text.Json with AllowDuplicateProperties off) reads none. RFC 8259 §4: names within an object SHOULD be unique.`,
    )
    return undefined
  },
}
