// Reads a server's body as JSON, int64s exact, or undefined: a body that is not JSON is data, not an error.
import { parseExactJson } from '../../contract/exact-json.ts'

/**
 * The JSON value of a text, or `undefined` when it is not JSON: servers send whatever they send. Integers
 * beyond 2^53 are read exactly, as bigints (contract/exact-json.ts).
 * @example parseJson('{"id":1}') // { id: 1 }; parseJson('<html>') // undefined
 */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined
  try {
    return parseExactJson(text)
  } catch {
    return undefined
  }
}
