// The Validation result (ok, or violations as data) and Ajv's errors reworded as one sentence per field.
import type { ErrorObject } from 'ajv'

/** One way a value breaks the contract, worded for a person: `/categoryId must be integer`. */
export interface SchemaViolation {
  /** Where: a JSON Pointer into a body (`/categoryId`, `` for the whole body) or a parameter's name. */
  at: string
  /** The whole sentence, naming the field. */
  message: string
}

/**
 * @deprecated Use `SchemaViolation`. The suite's `Violation` (from `suites/index.ts`) is a broken rule, a
 * different thing; this old name stays so code written against it keeps compiling.
 */
export type Violation = SchemaViolation

/** Expected failures are data: a value either conforms (and comes back parsed) or carries its violations. */
export type Validation<T = unknown> = { ok: true; value: T } | { ok: false; errors: SchemaViolation[] }

/**
 * Turns Ajv's errors into sentences that name the field. `subject` names the thing validated when the
 * error is about the whole of it: `body`, `query parameter "limit"`.
 * @example describeAjvErrors(errors, 'body') // [{ at: '/name', message: '/name is required' }]
 */
export function describeAjvErrors(
  errors: readonly ErrorObject[],
  subject: string,
  prefix = '',
): SchemaViolation[] {
  const seen = new Set<string>()
  const violations: SchemaViolation[] = []
  // A format check on a value of the wrong type repeats the type error in other words.
  const typeErrors = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath))
  for (const error of errors) {
    if (error.keyword === 'format' && typeErrors.has(error.instancePath)) continue
    const violation = describe(error, subject, prefix)
    // allOf branches report the same failure once per branch; a person needs it once.
    if (seen.has(violation.message)) continue
    seen.add(violation.message)
    violations.push(violation)
  }
  return violations
}

function describe(error: ErrorObject, subject: string, prefix: string): SchemaViolation {
  const at = prefix + error.instancePath
  const name = error.instancePath === '' ? subject : at
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required': {
      const field = `${at}/${String(params.missingProperty)}`
      return { at: field, message: `${field} is required` }
    }
    case 'additionalProperties': {
      const field = `${at}/${String(params.additionalProperty)}`
      return { at: field, message: `${field} is not allowed` }
    }
    case 'enum':
      return {
        at,
        message: `${name} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`,
      }
    case 'format':
      if (params.format === 'int64' || params.format === 'int32') {
        return { at, message: `${name} must be an ${String(params.format)} ${formatRanges[params.format]}` }
      }
      return { at, message: `${name} ${error.message ?? 'has the wrong format'}` }
    default:
      return { at, message: `${name} ${error.message ?? `fails "${error.keyword}"`}` }
  }
}

const formatRanges: Record<string, string> = {
  int32: 'from -2147483648 to 2147483647',
  int64: 'from -9223372036854775808 to 9223372036854775807',
}
