import { contract } from '../contract/index.ts'
import { isRecord } from '../contract/openapi-document.ts'

/** The names of every property the contract types as an integer (`id`, `categoryId`, Error's `status`). */
function integerProperties(): Set<string> {
  const names = new Set<string>()
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit)
    else if (isRecord(value)) {
      if (isRecord(value.properties))
        for (const [name, schema] of Object.entries(value.properties))
          if (isRecord(schema) && schema.type === 'integer') names.add(name)
      for (const inner of Object.values(value)) visit(inner)
    }
  }
  visit(contract.document.components?.schemas)
  return names
}

const names = [...integerProperties()].map((name) => name.replace(/[^\w$]/g, '\\$&'))
// A contract integer property followed by a plain integer literal (no fraction or exponent).
const literal = new RegExp(`"(?:${names.join('|')})"\\s*:\\s*(-?\\d{16,})(?![.\\deE])`, 'g')

/**
 * Finds the values of the contract's integer properties in raw JSON text whose magnitude is beyond 2^53 − 1.
 * `JSON.parse` has already rounded them, so only the text can tell (an int64 id of 2^60 would silently
 * become another number). Extra fields are the server's own: their numbers are not judged.
 * @example unsafeIntegers('{"id":9007199254740993,"nanos":1763851418123456789}') // ['9007199254740993']
 */
export function unsafeIntegers(text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(literal)) {
    const digits = (match[1] ?? '').replace('-', '')
    if (BigInt(digits) > BigInt(Number.MAX_SAFE_INTEGER)) found.push(match[1] ?? '')
  }
  return found
}
