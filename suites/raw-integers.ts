/**
 * Finds integer literals in raw JSON text whose magnitude is beyond 2^53 - 1. `JSON.parse` has already
 * rounded them, so only the text can tell (an int64 id of 2^60 would silently become another number).
 * @example unsafeIntegers('{"id":9007199254740993}') // ['9007199254740993']
 */
export function unsafeIntegers(text: string): string[] {
  const found: string[] = []
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (inString) {
      if (char === '\\') index++
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') {
      inString = true
      continue
    }
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index, index + 400))
      if (!match) continue
      const literal = match[0]
      index += literal.length - 1
      if (match[1] === undefined && match[2] === undefined) {
        const digits = literal.replace('-', '')
        if (digits.length > 15 && BigInt(digits) > BigInt(Number.MAX_SAFE_INTEGER)) found.push(literal)
      } else if (Number.isInteger(Number(literal)) && Math.abs(Number(literal)) > Number.MAX_SAFE_INTEGER) {
        found.push(literal)
      }
    }
  }
  return found
}
