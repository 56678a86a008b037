// The parsed document's type, the check that it is OpenAPI 3.1, and the JSON Pointer / local $ref walk.
import { ContractError } from './contract-error.ts'

/** The parsed OpenAPI document: plain JSON data, typed only as far as the loader walks it. */
export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; [key: string]: unknown }
  paths: Record<string, Record<string, unknown>>
  components?: Record<string, Record<string, unknown>>
  [key: string]: unknown
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Checks that parsed data has the shape of an OpenAPI 3.1 document before anything walks it. */
export function asOpenApiDocument(data: unknown, source: string): OpenApiDocument {
  if (!isRecord(data) || typeof data.openapi !== 'string' || !isRecord(data.paths) || !isRecord(data.info)) {
    throw new ContractError(
      `Failed to load the contract: ${source} is not an OpenAPI document (no "openapi", "info" or "paths"). ` +
        'Make sure it is the OpenAPI 3.1 YAML of the Animal Store Service.',
    )
  }
  if (!data.openapi.startsWith('3.1.')) {
    throw new ContractError(
      `Failed to load the contract: ${source} is OpenAPI ${data.openapi}, but the loader reads JSON Schema 2020-12 ` +
        'as OpenAPI 3.1 defines it. Make sure the document declares "openapi: 3.1.x".',
    )
  }
  return data as OpenApiDocument
}

/** Escapes one JSON Pointer segment (RFC 6901 §3). */
export function pointerSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}

/**
 * Follows local `$ref`s of OpenAPI objects (Response, Parameter, Request Body, and a schema's own top-level
 * $ref to read its `default`), returning the object and the JSON Pointer it lives at. Validation refs are Ajv's.
 * @example followReference(doc, '#/paths/~1pets/get/responses/401') // -> at '#/components/responses/Unauthorized'
 */
export function followReference(document: OpenApiDocument, pointer: string): { at: string; value: unknown } {
  const seen = new Set<string>()
  let at = pointer
  let value = valueAt(document, pointer)
  while (isRecord(value) && typeof value.$ref === 'string') {
    if (!value.$ref.startsWith('#/') || seen.has(value.$ref)) {
      throw new ContractError(
        `Failed to load the contract: the reference "${value.$ref}" at ${at} is external or circular. ` +
          'Make sure every $ref of a response, parameter or request body points inside the document.',
      )
    }
    seen.add(value.$ref)
    at = value.$ref
    value = valueAt(document, at)
  }
  return { at, value }
}

function valueAt(document: OpenApiDocument, pointer: string): unknown {
  let value: unknown = document
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    value = isRecord(value) ? value[segment] : Array.isArray(value) ? value[Number(segment)] : undefined
  }
  if (value === undefined) {
    throw new ContractError(
      `Failed to load the contract: nothing is at ${pointer}. Make sure the $ref names an existing component.`,
    )
  }
  return value
}
