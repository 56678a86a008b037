// A field's schema keywords with $refs followed, and an operation's body fields, for generating values.
import { contract } from '../../contract/index.ts'
import { followReference, isRecord } from '../../contract/openapi-document.ts'

/** The keywords of a field's schema that generated values are read from. */
export interface FieldSchema {
  type?: string
  format?: string
  enum?: unknown[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  [keyword: string]: unknown
}

/**
 * A schema with its `$ref`s followed, `{}` when it is not an object. Refs are followed here only to read
 * which keywords a field has; validation stays Ajv's.
 */
export function resolveSchema(value: unknown): FieldSchema {
  let schema = value
  for (let depth = 0; isRecord(schema) && typeof schema.$ref === 'string' && depth < 10; depth++) {
    schema = followReference(contract.document, schema.$ref).value
  }
  return (isRecord(schema) ? schema : {}) as FieldSchema
}

/**
 * The fields of an operation's request body schema, each resolved, and which are required; undefined when
 * the operation takes no body.
 * @example requestBodyFields('createPet')?.required // ['name', 'categoryId']
 */
export function requestBodyFields(
  operationId: string,
): { properties: Record<string, FieldSchema>; required: string[] } | undefined {
  const pointer = contract.operation(operationId).requestBody?.schemaPointer
  if (!pointer) return undefined
  const schema = resolveSchema(followReference(contract.document, pointer).value)
  const properties = isRecord(schema.properties) ? schema.properties : {}
  return {
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, value]) => [name, resolveSchema(value)]),
    ),
    required: Array.isArray(schema.required) ? schema.required.map(String) : [],
  }
}
