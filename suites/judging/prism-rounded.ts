// Reads values Prism rounded to ±2^63 back as the int64 bounds, so Prism's rounding is not the server's.
import { int64Max, int64Min } from '../../contract/exact-json.ts'
import { isRecord } from '../../contract/openapi-document.ts'

/**
 * A body Prism passed on, with each value Prism may have rounded from an int64 bound (to ±2^63, written
 * `9223372036854776000`) read as that bound: Prism, not the server, changed it.
 */
export function prismRounded(value: unknown): unknown {
  if (typeof value === 'bigint') {
    const double = Number(value)
    return double === 2 ** 63 ? int64Max : double === -(2 ** 63) ? int64Min : value
  }
  if (Array.isArray(value)) return value.map(prismRounded)
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prismRounded(v)]))
  return value
}
