// Judges an answer against a recorded Pact interaction's expectation: status, content type, body under its matching rules.
import { parseExactJson, stringifyExactJson } from '../../contract/index.ts'
import { isRecord } from '../../contract/openapi-document.ts'
import type { PactInteraction } from '../../mocks/core/pact-document.ts'

/** One way the answer differs from what the consumer's recording expects, at a JSON path. */
interface ExpectationMismatch {
  /** `status`, `header content-type`, or a body path such as `$[0].categoryId`. */
  where: string
  message: string
}

type Matcher = { match: string; min?: number; max?: number; regex?: string; value?: unknown }
type RuleSet = Record<string, { matchers?: Matcher[] }>

/**
 * Where the answer differs from the interaction's expected response, as Pact's own Verifier judges it:
 * the status exactly; each expected header (by its rule, else the same media type for `Content-Type`, else
 * the same value); the body under its matching rules, a rule holding at its path and below unless a more
 * specific one is given (`type`: the same JSON types, arrays of any length like their first item, at least
 * `min`; `equality`; `regex`), and without one equal values. Objects may always hold more members.
 */
export function expectationMismatches(
  expected: PactInteraction['response'],
  actual: { status: number; headers: Record<string, string>; body: string },
  /** The body's value when judging kept it parsed (the text of a judged body is let go past its start). */
  parsed?: { value: unknown },
): ExpectationMismatch[] {
  const mismatches: ExpectationMismatch[] = []
  if (actual.status !== expected.status)
    mismatches.push({
      where: 'status',
      message: `status ${actual.status}, where the recording has ${expected.status}`,
    })
  const headerRules = (expected.matchingRules?.header ?? {}) as RuleSet
  for (const [name, values] of Object.entries(expected.headers ?? {})) {
    const want = values.join(', ')
    const got = actual.headers[name.toLowerCase()]
    const rule = headerRules[name]?.matchers?.[0] ?? headerRules[name.toLowerCase()]?.matchers?.[0]
    const ok =
      got !== undefined &&
      (rule?.match === 'regex' && rule.regex !== undefined
        ? new RegExp(rule.regex).test(got)
        : name.toLowerCase() === 'content-type'
          ? mediaType(got) === mediaType(want)
          : got === want)
    if (!ok)
      mismatches.push({
        where: `header ${name.toLowerCase()}`,
        message: `${name} ${got === undefined ? 'absent' : JSON.stringify(got)}, where the recording has ${JSON.stringify(want)}`,
      })
  }
  const body = expected.body
  if (body === undefined) return mismatches
  const bodyRules = (expected.matchingRules?.body ?? {}) as RuleSet
  if (body.contentType.toLowerCase().includes('json')) {
    let value: unknown
    try {
      value = parsed ? parsed.value : parseExactJson(actual.body)
    } catch {
      mismatches.push({ where: '$', message: 'a body that is not JSON, where the recording has JSON' })
      return mismatches
    }
    compare(body.content, value, '$', bodyRules, undefined, mismatches)
  } else if (actual.body !== body.content) {
    mismatches.push({ where: '$', message: 'a body other than the recorded one' })
  }
  return mismatches
}

// Enough to tell what broke; a body that breaks everywhere is not listed whole.
const maxMismatches = 10

function compare(
  expected: unknown,
  actual: unknown,
  path: string,
  rules: RuleSet,
  inherited: Matcher | undefined,
  out: ExpectationMismatch[],
): void {
  if (out.length >= maxMismatches) return
  const matcher = ruleAt(rules, path) ?? inherited
  const fail = (message: string) => out.push({ where: path, message })
  if (matcher?.match === 'equality') {
    if (stringifyExactJson(expected) !== stringifyExactJson(actual))
      fail(`${shown(actual)}, where the recording has exactly ${shown(expected)}`)
    return
  }
  if (matcher?.match === 'regex' && matcher.regex !== undefined) {
    if (typeof actual !== 'string' || !new RegExp(matcher.regex).test(actual))
      fail(`${shown(actual)} does not match /${matcher.regex}/`)
    return
  }
  // Pact's other matchers, from files other tools wrote: a kind of value, a substring.
  if (matcher?.match === 'integer' || matcher?.match === 'decimal' || matcher?.match === 'number') {
    const integral = typeof actual === 'bigint' || (typeof actual === 'number' && Number.isInteger(actual))
    const ok =
      matcher.match === 'integer'
        ? integral
        : matcher.match === 'decimal'
          ? typeof actual === 'number' && !integral
          : integral || typeof actual === 'number'
    if (!ok)
      fail(
        `${shown(actual)}, where the recording asks for ${matcher.match === 'integer' ? 'an' : 'a'} ${matcher.match}`,
      )
    return
  }
  if (matcher?.match === 'boolean') {
    if (typeof actual !== 'boolean') fail(`${shown(actual)}, where the recording asks for a boolean`)
    return
  }
  if (matcher?.match === 'include') {
    if (typeof actual !== 'string' || !actual.includes(String(matcher.value ?? '')))
      fail(`${shown(actual)} does not include ${shown(matcher.value)}`)
    return
  }
  // A matcher this does not know (a date format, a content type) is held to the type of its example: never
  // stricter than the file asks, so no correct server fails on it.
  const byType = matcher !== undefined && matcher.match !== 'equality'
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return void fail(`${typeName(actual)}, where the recording has an array`)
    if (byType) {
      if (matcher?.min !== undefined && actual.length < matcher.min)
        fail(`${actual.length} items, fewer than the ${matcher.min} the recording asks for`)
      if (matcher?.max !== undefined && actual.length > matcher.max)
        fail(`${actual.length} items, more than the ${matcher.max} the recording allows`)
      if (expected.length > 0)
        actual.forEach((item, index) => {
          compare(expected[0], item, `${path}[${index}]`, rules, matcher, out)
        })
      return
    }
    if (actual.length !== expected.length)
      return void fail(`${actual.length} items, where the recording has ${expected.length}`)
    expected.forEach((item, index) => {
      compare(item, actual[index], `${path}[${index}]`, rules, matcher, out)
    })
    return
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return void fail(`${typeName(actual)}, where the recording has an object`)
    const missing = Object.keys(expected).filter((name) => !Object.hasOwn(actual, name))
    if (missing.length > 0)
      fail(`no ${missing.map((name) => JSON.stringify(name)).join(', ')}, which the recording has`)
    for (const [name, value] of Object.entries(expected))
      if (Object.hasOwn(actual, name))
        compare(value, actual[name], memberPath(path, name), rules, matcher, out)
    return
  }
  if (byType) {
    if (typeName(expected) !== typeName(actual))
      fail(`${typeName(actual)}, where the recording has ${typeName(expected)}`)
    return
  }
  if (stringifyExactJson(expected) !== stringifyExactJson(actual))
    fail(`${shown(actual)}, where the recording has ${shown(expected)}`)
}

/** The rule given for this very path, or for it with any index as `[*]`, or any member as `*`. */
function ruleAt(rules: RuleSet, path: string): Matcher | undefined {
  const wildcard = path.replace(/\[\d+\]/g, '[*]')
  const members = wildcard.replace(/\.[A-Za-z_][A-Za-z0-9_]*$/, '.*')
  for (const candidate of [path, wildcard, members]) {
    const matcher = rules[candidate]?.matchers?.[0]
    if (matcher) return matcher
  }
  return undefined
}

function memberPath(path: string, name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
    ? `${path}.${name}`
    : `${path}['${name.replaceAll("'", "\\'")}']`
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'bigint' || typeof value === 'number') return 'a number'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value}`
}

// Clipped: the server's values are untrusted and may be long; the output boundary defuses them later.
function shown(value: unknown): string {
  const text = stringifyExactJson(value) ?? 'absent'
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function mediaType(value: string): string {
  return value.split(';')[0]?.trim().toLowerCase() ?? ''
}
