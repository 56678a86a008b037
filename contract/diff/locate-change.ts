// Where a change the differ reports sits: its operation, request or response, parameter, status, body pointer.
import { isRecord, type OpenApiDocument, pointerSegment } from '../openapi-document.ts'
import type { ChangedOperation, ChangeLocation } from './contract-change.ts'

/** A path into the document as the differ gives it, $refs of the document crossed as if inlined. */
export type DiffPath = readonly (string | number)[]

export interface LocatedChange {
  operation: ChangedOperation | null
  location: ChangeLocation
  /**
   * What part of the operation the path names: the whole operation, a parameter or a response as a whole, a
   * field of one (`required`), a schema keyword, or anything else (`other`: summary, tags, security...).
   */
  part:
    | 'operation'
    | 'parameter'
    | 'parameter-field'
    | 'request-body'
    | 'request-body-field'
    | 'response'
    | 'response-field'
    | 'schema'
    | 'operation-field'
    | 'document'
  /** For a schema change: the differ's path to the schema, and the path inside it. */
  schemaRoot?: DiffPath
  schemaPath?: DiffPath
}

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

/** Steps along a differ's path in one document, following every local $ref it meets on the way. */
export function valueAlong(document: OpenApiDocument, path: DiffPath): unknown {
  let value: unknown = document
  for (const segment of path) {
    value = followed(document, value)
    value = isRecord(value) ? value[segment] : Array.isArray(value) ? value[Number(segment)] : undefined
  }
  return followed(document, value)
}

function followed(document: OpenApiDocument, value: unknown): unknown {
  const seen = new Set<string>()
  let current = value
  while (isRecord(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    if (seen.has(current.$ref)) return current
    seen.add(current.$ref)
    let target: unknown = document
    for (const raw of current.$ref.slice(2).split('/'))
      target = isRecord(target) ? target[raw.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined
    current = target
  }
  return current
}

/**
 * An operation's parameters as the differ numbers them: the operation's own, then its path item's (the
 * differ copies those into each operation), $refs followed.
 */
function mergedParameters(document: OpenApiDocument, template: string, method: string): unknown[] {
  const own = valueAlong(document, ['paths', template, method, 'parameters'])
  const shared = valueAlong(document, ['paths', template, 'parameters'])
  return [...(Array.isArray(own) ? own : []), ...(Array.isArray(shared) ? shared : [])].map((parameter) =>
    followed(document, parameter),
  )
}

/** The first server's path prefix (`/v1` of `{base_url}/v1`), which every request path starts with. */
export function basePathOf(document: OpenApiDocument): string {
  const server = (
    document.servers as { url?: string; variables?: Record<string, { default?: string }> }[]
  )?.[0]
  if (typeof server?.url !== 'string') return ''
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '')
  try {
    return new URL(url, 'http://placeholder').pathname.replace(/\/$/, '')
  } catch {
    return ''
  }
}

/** The JSON Pointer into a value that a path inside its schema describes: `properties/name` is `/name`. */
function instancePointer(schemaPath: DiffPath): string {
  let pointer = ''
  for (let index = 0; index < schemaPath.length; index++) {
    const keyword = schemaPath[index]
    const next = schemaPath[index + 1]
    if ((keyword === 'properties' || keyword === 'prefixItems') && next !== undefined) {
      pointer += `/${pointerSegment(String(next))}`
      index++
    } else if (keyword === 'items' || keyword === 'additionalProperties') pointer += '/*'
    else if ((keyword === 'allOf' || keyword === 'anyOf' || keyword === 'oneOf') && typeof next === 'number')
      index++
    else break
  }
  return pointer
}

function schemaPointer(schemaPath: DiffPath): string {
  return schemaPath.map((segment) => `/${pointerSegment(String(segment))}`).join('')
}

/**
 * Places one change of the differ: which operation (by id, method and path, as a recorded interaction
 * names it), and where in it. `base` and `head` are both needed: a removed parameter exists only in base.
 */
export function locateChange(
  path: DiffPath,
  base: OpenApiDocument,
  head: OpenApiDocument,
  value?: unknown,
): LocatedChange {
  const [root, template, method, ...rest] = path
  if (
    root !== 'paths' ||
    typeof template !== 'string' ||
    typeof method !== 'string' ||
    !httpMethods.has(method)
  )
    return {
      operation: null,
      location: { in: 'document', documentPointer: schemaPointer(path) },
      part: 'document',
    }
  const either = (at: DiffPath) => valueAlong(base, at) ?? valueAlong(head, at)
  const operationValue = either(['paths', template, method])
  const id =
    isRecord(operationValue) && typeof operationValue.operationId === 'string'
      ? operationValue.operationId
      : null
  const operation: ChangedOperation = {
    id,
    method: method.toUpperCase(),
    path: template,
    requestPath: `${basePathOf(head) || basePathOf(base)}${template}`,
  }
  const at = (location: ChangeLocation, part: LocatedChange['part'], schemaFrom?: number): LocatedChange => {
    if (schemaFrom === undefined) return { operation, location, part }
    const schemaPath = rest.slice(schemaFrom)
    return {
      operation,
      location: {
        ...location,
        pointer: instancePointer(schemaPath),
        schemaPointer: schemaPointer(schemaPath),
      },
      part: 'schema',
      schemaRoot: path.slice(0, 3 + schemaFrom),
      schemaPath,
    }
  }
  const [first, second, third, fourth, fifth] = rest
  if (first === undefined) return at({ in: 'operation' }, 'operation')
  if (first === 'parameters' && second !== undefined) {
    // A parameter added or removed whole is the differ's value: its index is one of the merged list, which
    // can name another parameter in either document. Inside one, the index is BASE's.
    const parameter =
      third === undefined && isRecord(value)
        ? (followed(head, value) ?? followed(base, value))
        : (mergedParameters(base, template, method)[Number(second)] ??
          mergedParameters(head, template, method)[Number(second)])
    const named = isRecord(parameter) ? { in: String(parameter.in), name: String(parameter.name) } : undefined
    const location: ChangeLocation = { in: 'request', ...(named ? { parameter: named } : {}) }
    if (third === undefined) return at(location, 'parameter')
    if (third === 'schema') return at(location, 'schema', 3)
    return at(location, 'parameter-field')
  }
  if (first === 'requestBody') {
    if (second === undefined) return at({ in: 'request' }, 'request-body')
    if (second === 'content' && typeof third === 'string') {
      const location: ChangeLocation = { in: 'request', mediaType: third }
      return fourth === 'schema' ? at(location, 'schema', 4) : at(location, 'request-body-field')
    }
    return at({ in: 'request' }, 'request-body-field')
  }
  if (first === 'responses' && second !== undefined) {
    const status = String(second)
    if (third === undefined) return at({ in: 'response', status }, 'response')
    if (third === 'content' && typeof fourth === 'string') {
      const location: ChangeLocation = { in: 'response', status, mediaType: fourth }
      return fifth === 'schema' ? at(location, 'schema', 5) : at(location, 'response-field')
    }
    if (third === 'headers' && typeof fourth === 'string') {
      const location: ChangeLocation = { in: 'response', status, header: fourth }
      return fifth === 'schema' ? at(location, 'schema', 5) : at(location, 'response-field')
    }
    return at({ in: 'response', status }, 'response-field')
  }
  return at({ in: 'operation', documentPointer: schemaPointer(rest) }, 'operation-field')
}
