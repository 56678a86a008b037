// Request bodies that break the request schema, derived from it rather than a hand-kept list.
import { type FieldSchema, requestBodyFields } from './field-schema.ts'
import { capitalise, enumNearMisses } from './near-miss-spellings.ts'

export interface NegativeBody {
  /** What is wrong with it, as a check name: `without name`, `categoryId as a string`. */
  description: string
  /** What is at fault, the same for every body breaking the same field: `body /name`, `body`. */
  fault: string
  /** The raw text sent. */
  body: string
}

/**
 * Request bodies that break the request schema of `operationId`, derived from that schema (its required
 * fields, property types, enums and int64 formats), not from a hand-kept list: each required field
 * missing or present only in another letter case, each field of each wrong type, `null` for each field, enum
 * violations and near-misses (another case, spaces, empty), each field twice with two wrong values,
 * integers beyond int64, then bodies that are not an object, not one JSON value (trailing data, two
 * objects), not JSON, or empty. `text` is every valid string in them: a unique one lets a pet the server
 * stored anyway be traced to the body it refused.
 */
export function negativeBodies(operationId: string, text = 'conformance'): NegativeBody[] {
  const fields = requestBodyFields(operationId)
  if (!fields) return []
  const { properties, required } = fields
  const valid = Object.fromEntries(
    Object.entries(properties).map(([name, field]) => [name, validValue(field, text)]),
  )
  const withField = (name: string, value: unknown) => JSON.stringify({ ...valid, [name]: value })
  const bodies: NegativeBody[] = []

  for (const name of required) {
    const { [name]: _, ...rest } = valid
    bodies.push({
      description: `without the required ${name}`,
      fault: `body /${name}`,
      body: JSON.stringify(rest),
    })
  }
  // Go's encoding/json matches keys without regard to case: `{"NAME":"x"}` fills `name`. The real key is
  // absent, so the body lacks a required field whatever a lenient decoder makes of it.
  for (const name of required) {
    const { [name]: value, ...rest } = valid
    for (const spelling of otherCases(name)) {
      if (spelling in properties) continue
      bodies.push({
        description: `with the required ${name} spelled "${spelling}" and no ${name}`,
        // One fault for every field: a decoder that matches keys without regard to case is one defect.
        fault: 'body keys in another letter case',
        body: JSON.stringify({ [spelling]: value, ...rest }),
      })
    }
  }
  for (const [name, field] of Object.entries(properties)) {
    for (const [label, value] of wrongValues(field))
      bodies.push({
        description: `${name} as ${label}`,
        fault: `body /${name}`,
        body: withField(name, value),
      })
    for (const [label, value] of nearMissEnumValues(field))
      bodies.push({ description: `${name} ${label}`, fault: `body /${name}`, body: withField(name, value) })
    // The same key twice (RFC 8259 §4: names SHOULD be unique; parsers keep the first, the last, or refuse).
    // Both values are wrong, so the body is invalid whichever a parser keeps: the outcome is the contract's.
    const [first, second] = wrongValues(field)
    if (first && second) {
      const { [name]: _, ...rest } = valid
      const others = JSON.stringify(rest).slice(1, -1)
      bodies.push({
        description: `with ${name} twice, both invalid (${first[0]}, then ${second[0]})`,
        fault: `body /${name}`,
        body: `{${others}${others ? ',' : ''}"${name}":${JSON.stringify(first[1])},"${name}":${JSON.stringify(second[1])}}`,
      })
    }
    bodies.push({ description: `${name} as null`, fault: `body /${name}`, body: withField(name, null) })
    if (field.type === 'integer' && field.format === 'int64') {
      // Spliced in as text: one past each end of int64, and 2^64 (an unsigned 64-bit value). A double cannot
      // hold them, and a server that reads them into one has already lost the fact that they are too big.
      for (const [label, literal] of [
        ['2^63, one beyond int64', '9223372036854775808'],
        ['-2^63 - 1, one below int64', '-9223372036854775809'],
        ['2^64, beyond int64', '18446744073709551616'],
      ]) {
        bodies.push({
          description: `${name} ${label}`,
          fault: `body /${name}`,
          body: withField(name, 0).replace(`"${name}":0`, `"${name}":${literal}`),
        })
      }
    }
  }
  const whole = (description: string, body: string) => ({ description, fault: 'body', body })
  bodies.push(
    whole('a JSON array', JSON.stringify([valid])),
    whole('a JSON string', '"not an object"'),
    whole('a JSON number', '42'),
    whole('JSON null', 'null'),
    whole('malformed JSON', `${JSON.stringify(valid).slice(0, -1)},`),
    // Go's json.Decoder and Jackson stop after the first value and ignore the rest: a valid object followed
    // by more text is not one JSON text (RFC 8259 §2), so it is not a NewPet.
    whole('with trailing data after the JSON object', `${JSON.stringify(valid)} x`),
    whole('of two JSON objects in a row', `${JSON.stringify(valid)}${JSON.stringify(valid)}`),
    whole('an empty body', ''),
  )
  return bodies
}

/** A value the field accepts, used to keep the other fields of a negative body valid. */
function validValue(field: FieldSchema, text: string): unknown {
  if (field.enum) return field.enum[0]
  if (field.type === 'integer' || field.type === 'number') return 1
  if (field.type === 'boolean') return true
  return text
}

/**
 * Strings a hair away from each enum value, the body's counterpart of the query near-misses: another letter
 * case, a space before or after, and the empty string. Kept only when the field's enum refuses them.
 */
function nearMissEnumValues(field: FieldSchema): [string, string][] {
  if (!field.enum) return []
  const listed = new Set(field.enum)
  const values: [string, string][] = []
  for (const value of field.enum.map(String)) values.push(...enumNearMisses(value))
  values.push(['"" (empty)', ''])
  return values.filter(
    ([, value], index) => !listed.has(value) && values.findIndex(([, v]) => v === value) === index,
  )
}

/** A key in the other letter cases a case-insensitive decoder would still match: `NAME`, `Name`, `name`. */
function otherCases(name: string): string[] {
  return [...new Set([name.toUpperCase(), name.toLowerCase(), capitalise(name)])].filter(
    (spelling) => spelling !== name,
  )
}

function wrongValues(field: FieldSchema): [string, unknown][] {
  if (field.enum)
    return [
      ['a value outside its enum', 'not-a-listed-value'],
      ['a number', 7],
    ]
  switch (field.type) {
    case 'string':
      return [
        ['a number', 123],
        ['a boolean', true],
        ['an object', { text: 'x' }],
      ]
    case 'integer':
      return [
        ['a string', '1'],
        ['a fraction', 1.5],
        ['a boolean', true],
      ]
    default:
      return [['an array', []]]
  }
}
