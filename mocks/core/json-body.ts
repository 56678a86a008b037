// How the mock reads a JSON body: depth-capped before JSON.parse sees it, int64s exact.
/** The deepest nesting of arrays and objects a body may have. NewPet needs 1; seed options need 1. */
export const maxJsonDepth = 32

import { closingQuote, parseExactJson } from '../../contract/exact-json.ts'

// The mock and the suite read "is this JSON?" the same way: one test, beside the contract.
export { isJsonMediaType } from '../../contract/json-media-type.ts'

/**
 * Parses a JSON body, refusing one nested deeper than `maxJsonDepth` before `JSON.parse` sees it: a
 * 1 MiB body of nested arrays costs JSON.parse (and the validator after it) hundreds of ms of blocked
 * event loop, and no valid body here nests more than once. Integers beyond 2^53 are read exactly (bigints).
 */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const depth = nestingDepth(text, maxJsonDepth)
  if (depth > maxJsonDepth) {
    return {
      ok: false,
      message: `Malformed JSON body: arrays and objects nest deeper than ${maxJsonDepth} levels. Send a flat JSON object.`,
    }
  }
  try {
    return { ok: true, value: parseExactJson(text) }
  } catch (error) {
    return { ok: false, message: `Malformed JSON body: ${(error as Error).message}.` }
  }
}

/** The nesting depth of `[`/`{` outside strings, scanning only until it passes `stopAbove`. */
function nestingDepth(text: string, stopAbove: number): number {
  let depth = 0
  let deepest = 0
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (char === 0x22) index = closingQuote(text, index)
    else if (char === 0x5b || char === 0x7b) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > stopAbove) return deepest
      }
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return deepest
}
