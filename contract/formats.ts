// The formats the validators know: ajv-formats' set, with int64 held to its real bounds, not any integer.
import { fullFormats } from 'ajv-formats/dist/formats.js'

/**
 * The contract's `int64`: an integer from −2^63 to 2^63−1. Ajv sees doubles only, so the validators
 * check `int64View` of a value (contract/exact-json.ts): a bigint read exactly becomes a double on the same
 * side of the bounds. ajv-formats' own int64 accepts any JavaScript integer, even 1e300.
 */
const int64Format = {
  type: 'number' as const,
  validate: (value: number) => Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63,
}

/** Every format the validators know: ajv-formats' full set, with the contract's own int64. */
export const contractFormats = { ...fullFormats, int64: int64Format }
