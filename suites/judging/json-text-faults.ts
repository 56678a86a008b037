// Names the known reasons a body is not JSON (a BOM, an anti-XSSI prefix, deep nesting) as one finding each.
import { maxJsonDepth, nestsDeeperThan } from '../../contract/exact-json.ts'

/**
 * Why a response body that should be JSON is not, when the cause is one a serialiser or a layer in front of
 * the service adds to every body it writes: a byte-order mark, an anti-XSSI prefix. Such a cause is one
 * defect wherever it shows, so its `where` names the cause, not the operation (one finding, not one per
 * operation and status).
 */
export interface JsonTextFault {
  where: string
  message: string
}

// Prefixes that make a JSON body unparseable as a script (anti-XSSI): Gerrit's and AngularJS's `)]}'`,
// Google's `while(1);` and `for(;;);`.
const xssiPrefixes = [")]}'", 'while(1);', 'for(;;);']

/**
 * The cause, if a known one, of a body that does not parse as JSON.
 * @example jsonTextFault('\uFEFF{"id":1}') // { where: 'response bodies start with a byte-order mark', ... }
 */
export function jsonTextFault(body: string): JsonTextFault | undefined {
  // RFC 8259 §8.1: "Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a
  // networked-transmitted JSON text." JSON.parse, System.Text.Json and Go's encoding/json all refuse one.
  if (body.startsWith('\uFEFF'))
    return {
      where: 'response bodies start with a byte-order mark',
      message:
        'The body starts with a UTF-8 byte-order mark (EF BB BF), which RFC 8259 §8.1 forbids in JSON sent over a network; JSON.parse and most JSON parsers refuse it. A writer made with a BOM-emitting encoding (.NET Encoding.UTF8) adds it.',
    }
  const prefix = xssiPrefixes.find((candidate) => body.trimStart().startsWith(candidate))
  if (prefix !== undefined)
    return {
      where: 'response bodies start with an anti-XSSI prefix',
      message: `The body starts with "${prefix}" before its JSON (an anti-XSSI prefix): the contract's bodies are plain application/json, which a client parses as it comes.`,
    }
  if (nestsDeeperThan(body))
    return {
      where: `response bodies nest deeper than ${maxJsonDepth} levels`,
      message: `The body nests arrays or objects more than ${maxJsonDepth} levels deep, so it is not read: the contract's bodies nest two levels (a list of pets), and a client that walks such a value recursively overflows its stack.`,
    }
  return undefined
}
