// Validators for bodies, parameters, headers and named schemas, over Ajv code compiled ahead of time.
import type { ValidateFunction } from 'ajv'
import { ContractError } from './contract-error.ts'
import { int64View } from './exact-json.ts'
import { isRecord, type OpenApiDocument } from './openapi-document.ts'
import type { Operation, OperationParameter, OperationResponse } from './operations.ts'
import { describeAjvErrors, type Validation } from './violations.ts'

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
 * Where each schema the toolkit validates against lives in the document, under the key createValidators
 * looks it up by: request bodies, parameters, response bodies and headers, component schemas.
 */
export function validatorPointers(document: OpenApiDocument, operations: Operation[]): Map<string, string> {
  const pointers = new Map<string, string>()
  for (const operation of operations) {
    if (operation.requestBody?.schemaPointer)
      pointers.set(bodyKey(operation.id), operation.requestBody.schemaPointer)
    for (const parameter of operation.parameters)
      pointers.set(parameterKey(operation.id, parameter.in, parameter.name), parameter.schemaPointer)
    for (const response of allResponses(operation)) {
      if (response.schemaPointer)
        pointers.set(responseKey(operation.id, response.status), response.schemaPointer)
      for (const header of response.headers)
        pointers.set(headerKey(operation.id, response.status, header.name), header.schemaPointer)
    }
  }
  const schemas = isRecord(document.components?.schemas) ? Object.keys(document.components.schemas) : []
  for (const name of schemas) pointers.set(schemaKey(name), `#/components/schemas/${name}`)
  return pointers
}

/**
 * The contract's validators over Ajv validate functions compiled ahead of time, keyed as
 * validatorPointers keys them (`npm run generate` writes them to contract/validators.gen.ts, from
 * contract/validators-module.ts): loading compiled functions costs nothing at start-up, where compiling
 * them cost ~100 ms of CPU in every process.
 * @example createValidators(ops, compiledValidators).validateSchema('Pet', { id: 1, name: 'Rex', categoryId: 2 }) // { ok: true, ... }
 */
export function createValidators(
  operations: Operation[],
  compiled: Readonly<Record<string, ValidateFunction>>,
): ContractValidators {
  const byId = new Map(operations.map((operation) => [operation.id, operation]))
  const lookup = (key: string, what: string) => {
    const validate = Object.hasOwn(compiled, key) ? compiled[key] : undefined
    if (validate) return validate
    throw new ContractError(
      `Failed to validate: the contract declares no ${what}. Check the operation id and status` +
        ' (after editing the YAML, run `npm run generate`).',
    )
  }
  // The value is checked as Ajv can see it (bigints as doubles) and comes back exact.
  const run = (validate: ValidateFunction, value: unknown, subject: string, prefix = ''): Validation =>
    validate(int64View(value))
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
  // An integer a double cannot hold (an int64 id beyond 2^53) is kept exact, as a bigint.
  if (/^-?\d+$/.test(raw) && !Number.isSafeInteger(Number(raw))) candidates.push(BigInt(raw))
  else if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) candidates.push(Number(raw))
  if (raw === 'true' || raw === 'false') candidates.push(raw === 'true')
  candidates.push(raw)
  return candidates
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
