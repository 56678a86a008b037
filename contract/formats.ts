import { fullFormats } from 'ajv-formats/dist/formats.js'

/**
 * The contract's `int64`. ajv-formats accepts any JavaScript integer as int64, even 1e300; a value beyond
 * 2^53 has already lost precision in JSON.parse, so it is refused rather than silently changed.
 */
export const int64Format = {
  type: 'number' as const,
  validate: (value: number) => Number.isSafeInteger(value),
}

/** Every format the validators know: ajv-formats' full set, with the contract's own int64. */
export const contractFormats = { ...fullFormats, int64: int64Format }
