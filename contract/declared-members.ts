// Drops from a judged value the members its schema does not declare: what a check may still read of it.
import { followReference, isRecord, type OpenApiDocument } from './openapi-document.ts'

/** What a schema says of a value's members: which are declared (and their schemas), or nothing to drop. */
type Shape =
  | { kind: 'object'; members: Map<string, unknown> }
  | { kind: 'array'; items: unknown }
  | { kind: 'open' }

const open: Shape = { kind: 'open' }

/**
 * Deletes, in place, every member of `value` (and of the objects and arrays in it) that the schema at
 * `pointer` does not declare. A member the schema leaves to anything (a map's `additionalProperties`,
 * `patternProperties`, a choice among `oneOf`/`anyOf`, a schema this does not read) keeps all it holds:
 * only what the contract names, and nothing it might mean, is let go.
 * @example keepDeclaredMembers(document, '#/components/schemas/Pet', { id: 1, name: 'Rex', categoryId: 2, x: 'y' }) // x deleted
 */
export function keepDeclaredMembers(document: OpenApiDocument, pointer: string, value: unknown): void {
  prune(document, { $ref: pointer }, value, 0)
}

// Deep enough for any body the contract declares; a deeper value is left as it is, not walked.
const maxDepth = 32

function prune(document: OpenApiDocument, schema: unknown, value: unknown, depth: number): void {
  if (depth > maxDepth) return
  const shape = shapeOf(document, schema, 0)
  if (shape.kind === 'array' && Array.isArray(value)) {
    for (const item of value) prune(document, shape.items, item, depth + 1)
    return
  }
  if (shape.kind !== 'object' || !isRecord(value) || Array.isArray(value)) return
  for (const name of Object.keys(value)) {
    if (!shape.members.has(name)) delete value[name]
    else prune(document, shape.members.get(name), value[name], depth + 1)
  }
}

function shapeOf(document: OpenApiDocument, schema: unknown, hops: number): Shape {
  if (!isRecord(schema) || hops > maxDepth) return open
  if (typeof schema.$ref === 'string') {
    const { $ref, ...beside } = schema
    // A $ref with siblings (OpenAPI 3.1) means both: read as an allOf of the two.
    const target = followReference(document, $ref).value
    return Object.keys(beside).length === 0
      ? shapeOf(document, target, hops + 1)
      : merged(document, [target, beside], hops)
  }
  const leftOpen = [
    'oneOf',
    'anyOf',
    'not',
    'if',
    'patternProperties',
    'unevaluatedProperties',
    'dependentSchemas',
  ]
  if (leftOpen.some((keyword) => keyword in schema)) return open
  if (isRecord(schema.additionalProperties)) return open
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...beside } = schema
    return merged(document, [...allOf, beside], hops)
  }
  if (isRecord(schema.properties) || Array.isArray(schema.required)) {
    const members = new Map(Object.entries(isRecord(schema.properties) ? schema.properties : {}))
    // A member required but not described is declared too: kept whole.
    for (const name of Array.isArray(schema.required) ? schema.required : [])
      if (typeof name === 'string' && !members.has(name)) members.set(name, {})
    return { kind: 'object', members }
  }
  if (schema.type === 'array' && 'items' in schema) return { kind: 'array', items: schema.items }
  return open
}

/** The members of every part together, when every part that speaks of members is an object's. */
function merged(document: OpenApiDocument, parts: unknown[], hops: number): Shape {
  const members = new Map<string, unknown>()
  let objects = 0
  for (const part of parts) {
    const shape = shapeOf(document, part, hops + 1)
    if (shape.kind === 'object') {
      objects++
      // A member two parts declare is judged by both: left whole rather than read by one of them.
      for (const [name, member] of shape.members) members.set(name, members.has(name) ? {} : member)
    } else if (shape.kind === 'array' || hasConstraints(part)) return open
  }
  return objects > 0 ? { kind: 'object', members } : open
}

/** Whether a part of an allOf says anything beyond its description: such a part might declare members. */
function hasConstraints(part: unknown): boolean {
  if (!isRecord(part)) return false
  const words = new Set(['description', 'title', 'type', 'examples', 'example', 'deprecated'])
  return Object.keys(part).some((key) => !words.has(key))
}
