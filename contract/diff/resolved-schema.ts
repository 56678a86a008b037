// A schema as it validates, whatever its spelling: $refs followed, allOf merged, annotations left out.
import { isRecord, type OpenApiDocument } from '../openapi-document.ts'

/**
 * Keywords that describe and never validate (JSON Schema 2020-12 §9 meta-data, OpenAPI's own, `x-*`).
 * `deprecated` is among them: the diff judges an operation's deprecation apart, through its sunset.
 */
const annotations = new Set([
  'title',
  'description',
  'summary',
  'example',
  'examples',
  '$comment',
  'deprecated',
  'externalDocs',
  'xml',
])

export function isAnnotation(keyword: string): boolean {
  return annotations.has(keyword) || keyword.startsWith('x-')
}

/** The value at a JSON Pointer (`#/components/schemas/Pet`) of the document, or undefined. */
function pointerTarget(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined
  let value: unknown = document
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    value = isRecord(value) ? value[key] : Array.isArray(value) ? value[Number(key)] : undefined
  }
  return value
}

/**
 * Follows $refs at every depth, merges `allOf` members whose keywords do not clash, and drops annotations,
 * so that two spellings of one schema (a $ref moved or inlined, an allOf flattened) come out equal.
 * A $ref already being followed (a recursive schema) is kept as it is.
 */
export function resolvedSchema(
  document: OpenApiDocument,
  schema: unknown,
  following: string[] = [],
): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolvedSchema(document, item, following))
  if (!isRecord(schema)) return schema
  const { $ref, ...rest } = schema
  if (typeof $ref === 'string' && !following.includes($ref)) {
    const target = resolvedSchema(document, pointerTarget(document, $ref), [...following, $ref])
    const siblings = resolvedSchema(document, rest, following)
    return Object.keys(siblings as object).length === 0 ? target : mergeAll([target, siblings])
  }
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (isAnnotation(key)) continue
    // Under `properties` the keys are property names, never keywords: a property called "description" stays.
    out[key] =
      key === 'properties' && isRecord(value)
        ? Object.fromEntries(
            Object.entries(value).map(([name, property]) => [
              name,
              resolvedSchema(document, property, following),
            ]),
          )
        : resolvedSchema(document, value, following)
  }
  // `type: [string, null]` and `type: [null, string]` accept the same values, and `[string]` is `string`.
  if (Array.isArray(out.type)) {
    const types = [...new Set(out.type.map(String))].sort()
    out.type = types.length === 1 ? types[0] : types
  }
  if (Array.isArray(out.allOf)) {
    const { allOf, ...own } = out
    return mergeAll([own, ...(allOf as unknown[])])
  }
  return out
}

/** One schema from several that must all hold, when no keyword of one contradicts another's. */
function mergeAll(members: unknown[]): unknown {
  const merged: Record<string, unknown> = {}
  const unmerged: unknown[] = []
  for (const member of members) {
    if (!isRecord(member)) {
      unmerged.push(member)
      continue
    }
    const clash = Object.entries(member).some(
      ([key, value]) =>
        key in merged &&
        key !== 'required' &&
        key !== 'properties' &&
        canonicalJson(merged[key]) !== canonicalJson(value),
    )
    const sharedProperty =
      isRecord(member.properties) &&
      isRecord(merged.properties) &&
      Object.keys(member.properties).some((name) => name in (merged.properties as object))
    if (clash || sharedProperty) {
      unmerged.push(member)
      continue
    }
    for (const [key, value] of Object.entries(member)) {
      if (key === 'required')
        merged.required = [...new Set([...((merged.required as string[]) ?? []), ...(value as string[])])]
      else if (key === 'properties')
        merged.properties = { ...(merged.properties as object), ...(value as object) }
      else merged[key] = value
    }
  }
  return unmerged.length === 0 ? merged : { ...merged, allOf: unmerged }
}

/**
 * JSON with object keys and `required` entries sorted, so equal schemas give equal text whatever their
 * order (the order of neither means anything to a validator).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (key, item) =>
    key === 'required' && Array.isArray(item)
      ? [...item].sort()
      : isRecord(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
        : item,
  )
}
