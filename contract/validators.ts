import type { ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import ajvFormats from 'ajv-formats'
import { ContractError } from './contract-error.ts'
import { isRecord, type OpenApiDocument } from './openapi-document.ts'
import type { Operation, OperationParameter, OperationResponse } from './operations.ts'
import { describeAjvErrors, type Validation } from './violations.ts'

// ajv-formats is CommonJS whose module.exports is the plugin itself; TypeScript's NodeNext view of it is
// the namespace, so it is typed as what Node really hands over.
const addFormats = ajvFormats as unknown as typeof ajvFormats.default

/** The `$id` the whole document is added to Ajv under; every schema is reached by a pointer into it. */
const documentId = 'openapi.json'

// Keywords OpenAPI 3.1 adds around and inside JSON Schema 2020-12 (§4.8.1 root object, §4.8.24 schema
// object). They are registered as annotations so strict mode still catches every other unknown keyword.
const openApiKeywords = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'externalDocs',
  'discriminator',
  'xml',
  'example',
]

export interface ContractValidators {
  /** Validates a parsed JSON request body against the operation's `application/json` schema. */
  validateRequestBody(operationId: string, body: unknown): Validation
  /**
   * Parses a raw parameter string (query, path or header) into the value its schema accepts and validates it:
   * `"20"` becomes `20` for an integer, `"sold"` stays a string for an enum.
   */
  parseParameter(
    operationId: string,
    location: OperationParameter['in'],
    name: string,
    raw: string,
  ): Validation
  /** Validates a parsed JSON response body against the schema declared for that status. */
  validateResponseBody(operationId: string, status: number | string, body: unknown): Validation
  /** Validates a raw response header against its declared schema. */
  validateResponseHeader(operationId: string, status: number | string, name: string, raw: string): Validation
  /** Validates a value against a named component schema (`Pet`, `NewPet`, `Error`, ...). */
  validateSchema(name: string, value: unknown): Validation
}

/**
 * Gives an Ajv validator for every request body, parameter, response body, response header and component
 * schema of the document, each compiled once, on first use: compiling all of them costs ~200 ms of every
 * start-up, and a server's first request needs two of them.
 * @example createValidators(doc, ops).validateSchema('Pet', { id: 1, name: 'Rex', categoryId: 2 }) // { ok: true, ... }
 */
export function createValidators(document: OpenApiDocument, operations: Operation[]): ContractValidators {
  // validateSchema: false, because checking even the one-line `{ $ref }` wrappers below against the
  // JSON Schema meta-schema makes Ajv compile that meta-schema first: ~100 ms of CPU on the first
  // validation of every process. The document's schemas are checked against it in a test
  // (validators.test.ts) and by Redocly in CI; strict mode still refuses unknown keywords here.
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    allErrors: true,
    validateFormats: true,
    validateSchema: false,
  })
  addFormats(ajv)
  // ajv-formats accepts any JavaScript integer as int64, even 1e300; a value beyond 2^53 has already lost
  // precision in JSON.parse, so it is refused rather than silently changed.
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) })
  ajv.addVocabulary([...openApiKeywords, ...extensionKeywords(document)])
  // The last argument skips validating the whole document against the JSON Schema meta-schema here: that
  // pass costs ~50 ms of every start-up, Redocly lints the document in CI, and a test does the same check
  // (validators.test.ts). Strict compilation below still rejects unknown keywords in every schema used.
  ajv.addSchema(document as object, documentId, undefined, false)

  const pointers = new Map<string, string>()
  const compiled = new Map<string, ValidateFunction>()
  // Only where each schema is, for now: compileNow runs on its first use.
  const compile = (key: string, pointer: string) => pointers.set(key, pointer)
  const compileNow = (key: string, pointer: string) => {
    try {
      const validate = ajv.compile({ $ref: `${documentId}${pointer}` })
      compiled.set(key, validate)
      return validate
    } catch (cause) {
      throw new ContractError(
        `Failed to use the contract: the schema at ${pointer} does not compile (${String(cause)}). ` +
          'Make sure it is valid JSON Schema 2020-12 and its $refs exist.',
        { cause },
      )
    }
  }
  for (const operation of operations) {
    if (operation.requestBody?.schemaPointer)
      compile(bodyKey(operation.id), operation.requestBody.schemaPointer)
    for (const parameter of operation.parameters) {
      compile(parameterKey(operation.id, parameter.in, parameter.name), parameter.schemaPointer)
    }
    for (const response of allResponses(operation)) {
      if (response.schemaPointer) compile(responseKey(operation.id, response.status), response.schemaPointer)
      for (const header of response.headers) {
        compile(headerKey(operation.id, response.status, header.name), header.schemaPointer)
      }
    }
  }
  const schemas = isRecord(document.components?.schemas) ? Object.keys(document.components.schemas) : []
  for (const name of schemas) compile(schemaKey(name), `#/components/schemas/${name}`)

  const byId = new Map(operations.map((operation) => [operation.id, operation]))
  const lookup = (key: string, what: string) => {
    const validate = compiled.get(key)
    if (validate) return validate
    const pointer = pointers.get(key)
    if (pointer === undefined) {
      throw new ContractError(
        `Failed to validate: the contract declares no ${what}. Check the operation id and status.`,
      )
    }
    return compileNow(key, pointer)
  }
  const run = (validate: ValidateFunction, value: unknown, subject: string, prefix = ''): Validation =>
    validate(value)
      ? { ok: true, value }
      : { ok: false, errors: describeAjvErrors(validate.errors ?? [], subject, prefix) }
  // A status such as 404 may be declared as '404', '4XX' or 'default' (OpenAPI 3.1 §4.8.16.2).
  const declaredStatus = (operationId: string, status: number | string) => {
    const operation = byId.get(operationId)
    const declared = operation ? allResponses(operation).map((response) => response.status) : []
    const code = String(status)
    return [code, `${code[0]}XX`, 'default'].find((candidate) => declared.includes(candidate)) ?? code
  }

  return {
    validateRequestBody: (operationId, body) =>
      run(lookup(bodyKey(operationId), `JSON request body for ${operationId}`), body, 'body'),

    parseParameter(operationId, location, name, raw) {
      const validate = lookup(
        parameterKey(operationId, location, name),
        `${location} parameter "${name}" for ${operationId}`,
      )
      const subject = `${location} parameter "${name}"`
      let first: Validation | undefined
      for (const candidate of parameterCandidates(raw)) {
        const result = run(validate, candidate, subject, name)
        if (result.ok) return result
        first ??= result
      }
      return first as Validation
    },

    validateResponseBody(operationId, status, body) {
      const declared = declaredStatus(operationId, status)
      return run(
        lookup(responseKey(operationId, declared), `JSON body for ${operationId} ${declared}`),
        body,
        'body',
      )
    },

    validateResponseHeader(operationId, status, name, raw) {
      const declared = declaredStatus(operationId, status)
      const key = headerKey(operationId, declared, name.toLowerCase())
      return run(lookup(key, `header ${name} for ${operationId} ${declared}`), raw, `header ${name}`)
    },

    validateSchema: (name, value) => run(lookup(schemaKey(name), `schema named ${name}`), value, name),
  }
}

/**
 * The values a raw parameter string may stand for, most specific first. OpenAPI's `form`/`simple` styles
 * carry primitives as text, so `"20"` may be the integer 20 or the string "20"; the schema decides.
 */
function parameterCandidates(raw: string): unknown[] {
  const candidates: unknown[] = []
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) candidates.push(Number(raw))
  if (raw === 'true' || raw === 'false') candidates.push(raw === 'true')
  candidates.push(raw)
  return candidates
}

function extensionKeywords(document: OpenApiDocument): string[] {
  const found = new Set<string>()
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit)
    else if (isRecord(value))
      for (const [key, inner] of Object.entries(value)) {
        if (key.startsWith('x-')) found.add(key)
        visit(inner)
      }
  }
  visit(document)
  return [...found]
}

const bodyKey = (operationId: string) => `${operationId} body`
const parameterKey = (operationId: string, location: string, name: string) =>
  `${operationId} ${location} ${name}`
const responseKey = (operationId: string, status: string) => `${operationId} ${status} body`
const headerKey = (operationId: string, status: string, name: string) =>
  `${operationId} ${status} header ${name}`
const schemaKey = (name: string) => `schema ${name}`

/** An operation's responses with its `default` one, for validators that look a status up. */
function allResponses(operation: Operation): OperationResponse[] {
  return operation.defaultResponse ? [...operation.responses, operation.defaultResponse] : operation.responses
}
