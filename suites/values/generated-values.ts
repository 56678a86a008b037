// Values generated from the schemas: valid and awkward bodies, near-miss queries, path ids, path spellings.
import { int64Max, int64Min } from '../../contract/exact-json.ts'
import { contract } from '../../contract/index.ts'
import { followReference } from '../../contract/openapi-document.ts'
import { type FieldSchema, requestBodyFields, resolveSchema } from './field-schema.ts'
import { capitalise, enumNearMisses } from './near-miss-spellings.ts'

/** A value the contract accepts or refuses, and the words a report uses for it. */
export interface LabelledValue<T> {
  /** Names the value, e.g. `name with emoji outside the BMP`, `categoryId = -2147483649`. */
  label: string
  value: T
  /** What a server that refuses this valid value can do about it (said with the failure). */
  ifRefused?: string
  /** The body field the value is for (`name`), on valid bodies that vary one field. */
  field?: string
}

/** A valid body awkward for a server, and whether refusing it is allowed (else it is a valid value refused). */
interface AwkwardBody {
  label: string
  body: string
  /** The field holding the awkward value. */
  field: string
  /** `true` where the value is not one the contract plainly allows (a lone surrogate, a name given twice). */
  refusable: boolean
}

/** A query string that breaks one query parameter's schema by a little. */
export interface NearMissQuery {
  label: string
  /** The raw query string, already percent-encoded, without `?`: `status=SOLD`, `limit=`. */
  query: string
}

/** A path id next to the valid ones. */
export interface NearMissPathId {
  label: string
  /** The raw path segment, already percent-encoded. */
  pathId: string
  /**
   * `invalid`: the contract's schema refuses it: any 4xx with an Error body, never 2xx or 5xx.
   * `no-such-pet`: an int64 the schema allows (the contract sets no minimum id) that no pet plausibly has:
   * 404, or a 200 whose Pet carries exactly that id; a placeholder pet with another id or shape is a failure.
   */
  expect: 'invalid' | 'no-such-pet'
}

/** A spelling of a request path that a router might resolve to the same resource. */
export interface PathSpelling {
  label: string
  /** The raw request-target path. Send it byte for byte: WHATWG URL parsing would undo dot segments and `%2e`. */
  path: string
  /**
   * `true` when RFC 3986 §6.2.2 makes it the same URI (percent-encoded unreserved letters, dot segments):
   * the contract applies, so 401 without a key. `false` when only a lax router would treat it as the same
   * (case, trailing or doubled slash, `;params`, suffixes): 401 or 404 are both fine. Never a 2xx.
   */
  sameUri: boolean
}

const int32 = 2 ** 31
const uint32 = 2 ** 32

/**
 * Valid values of one schema across its whole range, read from the schema's own keywords (type, format,
 * enum, minimum/maximum, minLength/maxLength); every value is validated by Ajv before it is returned.
 * Strings: empty (where allowed), very long, non-ASCII, and text that means something to HTML, JSON, SQL
 * or a shell. Integers: 0, negatives, both 32-bit boundaries and one beyond each, ±(2^53−1), and for int64
 * the values beyond 2^53 that only a 64-bit store keeps (2^53+1, 10^18, both int64 bounds; bigints, since
 * a double cannot hold them). Enums: every value.
 * @example validSchemaValues({ type: 'integer', format: 'int64' }).map((v) => v.value) // [0, 1, -1, 2147483647, ...]
 */
export function validSchemaValues(schema: FieldSchema): LabelledValue<unknown>[] {
  if (schema.enum) return schema.enum.map((value) => ({ label: `= ${JSON.stringify(value)}`, value }))
  if (schema.type === 'integer') return integerValues(schema)
  if (schema.type === 'string') return stringValues(schema)
  if (schema.type === 'boolean') return [true, false].map((value) => ({ label: `= ${value}`, value }))
  return []
}

/** Why a 64-bit value may be refused, and the two ways out: the contract says int64, so either side moves. */
/** Why a valid integer within 2^53 may be refused, and the two ways out. */
const rangeRefused =
  'Accept it, or state the rule in the contract (for example `minimum: 1`), so clients know the narrower range.'

/** What a server that refuses a valid string can do: accept it, or state its rule in the contract. */
function stringRefused(value: string): string {
  const keyword = value === '' ? '`minLength: 1`' : value.length > 255 ? '`maxLength`' : 'a `pattern`'
  return `Accept it, or state the rule in the contract (for example ${keyword}), so clients know it.`
}

export const int64Refused =
  'The contract types it int64 (64 bits): store it exactly (a 64-bit integer column and a JSON parser that does not round beyond 2^53), or, if the API cannot, declare the narrower range in the contract with minimum/maximum.'

function integerValues(schema: FieldSchema): LabelledValue<unknown>[] {
  const candidates: [string, number | bigint][] = [
    ['0', 0],
    ['1', 1],
    ['-1', -1],
    ['int32 maximum 2147483647', int32 - 1],
    ['2147483648, one beyond int32', int32],
    ['int32 minimum -2147483648', -int32],
    ['-2147483649, one below int32', -int32 - 1],
    ['uint32 maximum 4294967295', uint32 - 1],
    ['4294967296, one beyond uint32', uint32],
    ['largest safe integer 9007199254740991', Number.MAX_SAFE_INTEGER],
    ['9007199254740990', Number.MAX_SAFE_INTEGER - 1],
    ['smallest safe integer -9007199254740991', -Number.MAX_SAFE_INTEGER],
  ]
  if (schema.format === 'int64')
    candidates.push(
      ['2^53 + 1 = 9007199254740993', 2n ** 53n + 1n],
      ['10^18', 10n ** 18n],
      ['int64 maximum 9223372036854775807', int64Max],
      ['int64 minimum -9223372036854775808', int64Min],
    )
  const inRange = candidates.filter(
    ([, value]) =>
      (schema.minimum === undefined || value >= schema.minimum) &&
      (schema.maximum === undefined || value <= schema.maximum) &&
      (schema.format !== 'int32' || (value >= -int32 && value < int32)),
  )
  // A schema with bounds also gets its bounds, which a hand-kept list would forget.
  for (const bound of [schema.minimum, schema.maximum]) {
    if (bound !== undefined && !inRange.some(([, value]) => value === bound))
      inRange.push([`bound ${bound}`, bound])
  }
  return inRange.map(([label, value]) => ({
    label: `= ${label}`,
    value,
    ifRefused: typeof value === 'bigint' ? int64Refused : rangeRefused,
  }))
}

function stringValues(schema: FieldSchema): LabelledValue<unknown>[] {
  const candidates: [string, string][] = [
    ['empty', ''],
    ['one character', 'a'],
    ['256 characters (one beyond VARCHAR(255))', 'n'.repeat(256)],
    ['1,025 characters (one beyond 1 KiB)', 'n'.repeat(1025)],
    ['10,000 characters', 'n'.repeat(10_000)],
    ['256 two-byte characters (512 UTF-8 bytes)', 'é'.repeat(256)],
    ['with accents (precomposed)', 'Zoë Ångström café'],
    ['with a combining accent (decomposed e + U+0301)', 'Zoe\u0301 cafe\u0301'],
    ['in CJK', '小猫咪 ポチ 강아지'],
    ['right-to-left (Arabic and Hebrew)', 'قطة שלום'],
    ['with emoji outside the BMP', 'Rex 🐶🐈‍⬛ 𝔘𝔫𝔦'],
    ['with a ZWJ emoji sequence', '👩‍👩‍👧‍👦'],
    ['with characters that mean something to HTML', '<b>Tom</b> & "Jerry" \'s <script>alert(1)</script>'],
    ['with characters that mean something to JSON', '{"name":"x"}\\"\\u0041 \n\t'],
    ['with characters that mean something to SQL', "Robert'); DROP TABLE pets;-- %_"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the value under test
    ['with characters that mean something to a shell', '$(id) `id` ${HOME} | ; && > /dev/null'],
    ['with leading and trailing spaces', '  Rex  '],
    ['with a newline and a tab', 'line one\nline\ttwo'],
    ['with a NUL character', 'Rex\u0000Max'],
    ['with U+2028 LINE SEPARATOR', 'Rex\u2028Max'],
    ['with a byte-order mark', '\uFEFFRex'],
    ['that reads as null', 'null'],
    ['that reads as a number', '123'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the value under test
    ['with printf and template directives', '%s %d %n {{name}} ${name}'],
    ['with backslashes', 'C:\\pets\\new'],
  ]
  return candidates
    .filter(
      ([, value]) =>
        [...value].length >= (schema.minLength ?? 0) &&
        (schema.maxLength === undefined || [...value].length <= schema.maxLength),
    )
    .map(([label, value]) => ({ label, value, ifRefused: stringRefused(value) }))
}

/**
 * Each field of the operation's JSON request body schema with its valid values (`validSchemaValues`),
 * read from the contract.
 * @example fieldValues('createPet').status.map((v) => v.value) // ['available', 'pending', 'sold']
 */
export function fieldValues(operationId = 'createPet'): Record<string, LabelledValue<unknown>[]> {
  const { properties } = bodySchema(operationId)
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, validSchemaValues(schema)]),
  )
}

/**
 * Valid request bodies covering each field's whole range: one body per value of each field (the other
 * fields at a plain value), and one body without each optional field. Each must be created and come back
 * exactly as sent. Every body is checked against the contract before it is returned.
 * @example validBodies('createPet').find((b) => b.label === 'categoryId = -2147483649, one below int32')
 * // { label: ..., value: { name: 'a', categoryId: -2147483649, status: 'available' } }
 */
export function validBodies(operationId = 'createPet'): LabelledValue<Record<string, unknown>>[] {
  const { properties, required } = bodySchema(operationId)
  const values = fieldValues(operationId)
  const plain: Record<string, unknown> = Object.fromEntries(
    Object.keys(properties).map((name) => [name, plainValue(values[name] ?? [])]),
  )
  const bodies: LabelledValue<Record<string, unknown>>[] = []
  for (const [name, fieldValueList] of Object.entries(values)) {
    for (const { label, value, ifRefused } of fieldValueList) {
      bodies.push({
        label: `${name} ${label}`,
        value: { ...plain, [name]: value },
        field: name,
        ...(ifRefused === undefined ? {} : { ifRefused }),
      })
    }
    if (!required.includes(name)) {
      const { [name]: _, ...without } = plain
      bodies.push({ label: `without ${name} (optional)`, value: without })
    }
  }
  return bodies.filter(({ value }) => contract.validateRequestBody(operationId, value).ok)
}

// The first value that is neither empty nor zero: a body's other fields stay unremarkable.
function plainValue(values: LabelledValue<unknown>[]): unknown {
  return (values.find(({ value }) => value !== '' && value !== 0) ?? values[0])?.value
}

/**
 * Valid bodies that are awkward for a server, generated for each free-text string field (a string without
 * an enum): a lone high and a lone low surrogate escape (valid JSON, RFC 8259 §8.2, but not Unicode: Python
 * fails to encode them on output, some drivers on storing them), a NUL inside the text (C strings and
 * Postgres `text` cannot hold it), and a long run of combining marks (grapheme-aware code and Unicode
 * normalisation on store). Then the first required string field given twice with the same valid value
 * (RFC 8259 §4 leaves duplicate names to the parser; whichever it keeps, the value is the same).
 * Each must be created and given back exactly; a lone surrogate or a repeated name may be refused with a 4xx
 * Error (`refusable`); a 5xx is a failure.
 * `prefix` starts every text value, so the run can tell its own pets.
 * @example awkwardBodies('createPet', 'run1')[0].body // '{"name":"run1 \ud800","categoryId":1,"status":"available"}'
 */
export function awkwardBodies(operationId = 'createPet', prefix = ''): AwkwardBody[] {
  const { properties, required } = bodySchema(operationId)
  const values = fieldValues(operationId)
  const plain: Record<string, unknown> = Object.fromEntries(
    Object.keys(properties).map((name) => [name, plainValue(values[name] ?? [])]),
  )
  const lead = prefix === '' ? '' : `${prefix} `
  const marks = Array.from({ length: 256 }, (_, index) => String.fromCharCode(0x300 + (index % 0x70))).join(
    '',
  )
  // Lone surrogates are not Unicode text (RFC 8259 §8.2): refusing them is allowed. NUL and combining marks
  // are text the schema allows, so refusing them is refusing a valid value.
  const awkward: [string, string, boolean][] = [
    ['a lone high surrogate "\\ud800"', '\ud800', true],
    ['a lone low surrogate "\\udc00"', '\udc00', true],
    ['a NUL "\\u0000" inside it', 'a\u0000b', false],
    ['a letter followed by 256 combining marks', `Z${marks}`, false],
  ]
  const bodies: AwkwardBody[] = []
  const free = Object.entries(properties).filter(([, field]) => field.type === 'string' && !field.enum)
  // JSON.stringify writes lone surrogates and NUL as the escapes `\ud800` and `\u0000` (ES2019
  // well-formed JSON.stringify), so the body is ASCII JSON whatever the value.
  for (const [name] of free)
    for (const [label, value, refusable] of awkward)
      bodies.push({
        label: `${name} holding ${label}`,
        body: JSON.stringify({ ...plain, [name]: `${lead}${value}` }),
        field: name,
        refusable,
      })
  const [twice] = free.filter(([name]) => required.includes(name))
  if (twice) {
    const [name] = twice
    const value = JSON.stringify(`${lead}twice`)
    const { [name]: _, ...rest } = plain
    const others = JSON.stringify(rest).slice(1, -1)
    // RFC 8259 §4 leaves a repeated name to the parser, so a strict one may refuse the body.
    bodies.push({
      label: `${name} given twice with the same valid value`,
      body: `{"${name}":${value},"${name}":${value}${others ? ',' : ''}${others}}`,
      field: name,
      refusable: true,
    })
  }
  return bodies
}

/**
 * Query strings a hair away from valid, one parameter at a time, kept only when the contract's own
 * parameter schema refuses them (`contract.parseParameter`): enum values in another letter case or with
 * whitespace, empty values, integers just outside their bounds, and numbers in notations JSON does not have.
 * Each needs a 4xx with an Error body; an undeclared 4xx is a warning (README policy).
 * @example nearMissQueries('listPets').map((q) => q.query) // ['limit=', 'limit=0', ..., 'status=SOLD', ...]
 */
export function nearMissQueries(operationId = 'listPets'): NearMissQuery[] {
  const found: NearMissQuery[] = []
  for (const parameter of contract.operation(operationId).parameters) {
    if (parameter.in !== 'query') continue
    const schema = resolveSchema(followReference(contract.document, parameter.schemaPointer).value)
    const raws: [string, string][] = [['empty', '']]
    if (schema.enum) {
      for (const value of schema.enum.map(String)) {
        raws.push(...enumNearMisses(value), [`"${value}" with a trailing tab`, `${value}\t`])
      }
    }
    if (schema.type === 'integer') {
      if (schema.minimum !== undefined)
        raws.push([`${schema.minimum - 1} (below minimum)`, `${schema.minimum - 1}`])
      if (schema.maximum !== undefined)
        raws.push([`${schema.maximum + 1} (above maximum)`, `${schema.maximum + 1}`])
      const inside = schema.minimum ?? 1
      // Not " 1", "1 " or "0x1": common validators (Ajv's type coercion, Python's int()) read them as 1, so
      // a server built on one is not wrong enough to fail; these values no integer parser takes.
      raws.push(
        ['-1', '-1'],
        [`"${inside}abc" (digits then letters)`, `${inside}abc`],
        [`${inside}.5 (a fraction)`, `${inside}.5`],
      )
    }
    for (const [label, raw] of raws) {
      if (contract.parseParameter(operationId, 'query', parameter.name, raw).ok) continue
      found.push({
        label: `${parameter.name} ${label}`,
        query: `${encodeURIComponent(parameter.name)}=${encodeURIComponent(raw)}`,
      })
    }
  }
  return found
}

/**
 * Path ids next to the valid ones for the operation's integer path parameter: zero, negatives and both
 * ends of int64 (valid ids that no pet plausibly has), and spellings its schema refuses (digits then
 * letters, 2^63 one beyond int64).
 * An empty id is left out: `/pets/` is another path, which a router may fairly serve as the list.
 * @example nearMissPathIds('getPet')[0] // { label: 'petId 0', pathId: '0', expect: 'no-such-pet' }
 */
export function nearMissPathIds(operationId = 'getPet'): NearMissPathId[] {
  const parameter = contract.operation(operationId).parameters.find((p) => p.in === 'path')
  if (!parameter) return []
  const candidates: [string, string][] = [
    ['0', '0'],
    ['-1', '-1'],
    ['-2147483649', String(-int32 - 1)],
    ['-9007199254740991', String(-Number.MAX_SAFE_INTEGER)],
    // Not " 1", "+1", "0x1" or non-ASCII digits: mainstream parsers (Ajv's coercion, Java's Long.parseLong,
    // Python's int()) read them as 1, which would fail correct servers built on them.
    ['"1abc" (digits then letters)', '1abc'],
    ['9007199254740993 (2^53 + 1)', '9007199254740993'],
    ['int64 maximum 9223372036854775807', String(int64Max)],
    ['int64 minimum -9223372036854775808', String(int64Min)],
    ['9223372036854775808 (2^63, one beyond int64)', String(int64Max + 1n)],
  ]
  return candidates.map(([label, raw]) => {
    const accepted = contract.parseParameter(operationId, 'path', parameter.name, raw).ok
    return {
      label: `${parameter.name} ${label}`,
      pathId: encodeURIComponent(raw),
      expect: accepted ? 'no-such-pet' : 'invalid',
    }
  })
}

/**
 * Spellings of a request path (the whole path, base prefix included, e.g. `/v1/pets/12`) that a router
 * might resolve to the same resource. Sent without a key, none may ever answer 2xx; the `sameUri` ones
 * are the same URI by RFC 3986 §6.2.2, so the contract applies and they need 401.
 * @example pathSpellings('/v1/pets').map((s) => s.path) // ['/v1/pets/', '/v1//pets', '/v1/./pets', ...]
 */
export function pathSpellings(path: string): PathSpelling[] {
  const segments = path.split('/').slice(1)
  const last = segments.length - 1
  const at = (index: number, replace: string) =>
    `/${segments.map((segment, i) => (i === index ? replace : segment)).join('/')}`
  const spellings: PathSpelling[] = [
    { label: 'with a trailing slash', path: `${path}/`, sameUri: false },
    { label: 'with a doubled slash', path: path.replace(/\/(?=[^/]*$)/, '//'), sameUri: false },
    { label: 'with "/./" before the last segment', path: path.replace(/\/(?=[^/]*$)/, '/./'), sameUri: true },
    { label: 'with a "/x/../" dot segment', path: path.replace(/\/(?=[^/]*$)/, '/x/../'), sameUri: true },
    { label: 'with "%2e" as the dot of "/./"', path: path.replace(/\/(?=[^/]*$)/, '/%2e/'), sameUri: true },
    { label: 'in upper case', path: path.toUpperCase(), sameUri: false },
    { label: 'with ";x=1" path parameters', path: `${path};x=1`, sameUri: false },
    { label: 'with a ".json" suffix', path: `${path}.json`, sameUri: false },
    { label: 'with an encoded slash "%2F"', path: path.replace(/\/(?=[^/]*$)/, '%2F'), sameUri: false },
    { label: 'with a backslash', path: path.replace(/\/(?=[^/]*$)/, '\\'), sameUri: false },
  ]
  segments.forEach((segment, index) => {
    const letter = /[a-z]/i.exec(segment)
    if (!letter) return
    const i = letter.index
    const hex = letter[0].charCodeAt(0).toString(16)
    const encoded = `${segment.slice(0, i)}%${hex.toUpperCase()}${segment.slice(i + 1)}`
    spellings.push({
      label: `with "${letter[0]}" of "${segment}" percent-encoded`,
      path: at(index, encoded),
      sameUri: true,
    })
    if (index === last || index === 0)
      spellings.push({
        label: `with "${segment}" capitalised`,
        path: at(index, capitalise(segment)),
        sameUri: false,
      })
  })
  return spellings.filter(
    (spelling, index, all) =>
      spelling.path !== path && all.findIndex((s) => s.path === spelling.path) === index,
  )
}

function bodySchema(operationId: string): { properties: Record<string, FieldSchema>; required: string[] } {
  return requestBodyFields(operationId) ?? { properties: {}, required: [] }
}
