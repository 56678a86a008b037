// The response check that a body parses and matches its status's schema, with changed and stored records.
import { containsBigInt, parseExactJson } from '../../../contract/exact-json.ts'
import { contract } from '../../../contract/index.ts'
import { isRecord } from '../../../contract/openapi-document.ts'
import type { NewPet } from '../../../contract/types.ts'
import type { Validation } from '../../../contract/violations.ts'
import type { Violation } from '../findings.ts'
import { jsonTextFault } from '../json-text-faults.ts'
import { parseJson } from '../parse-json.ts'
import {
  changedFields,
  changedValue,
  differences,
  surrogateNote,
  surrogatesReplaced,
} from '../pet-differences.ts'
import { prismRounded } from '../prism-rounded.ts'
import { bodyDefined, bodyWhere, type ResponseCheck } from './judging.ts'
import { brokenRecords, recordViolations } from './stored-records.ts'

/**
 * The body parses as JSON and matches the schema declared for its status (an Error where the contract
 * leaves an error open). A create's 201 that changed what it was sent is reported as that change; records
 * already reported broken are judged once, and reads that show them are affected by that finding.
 */
export const bodySchemaCheck: ResponseCheck = {
  name: 'body schema',
  rules: ['body-schema', 'stored-record', 'changed-value'],
  judge(judging) {
    if (!bodyDefined(judging)) return undefined
    const { exchange, operation, params, recorder, storedWrong, name, declared, violate } = judging
    const { status, body } = exchange.response
    const { intent } = params
    let parsed: unknown
    try {
      // int64 values beyond 2^53 are read exactly (bigints): JSON.parse would round them.
      parsed = parseExactJson(body)
      exchange.json = parsed
    } catch {
      exchange.bodyUsable = false
      // A body in another format under another media type (a gateway's HTML page) is one defect, already
      // reported as the Content-Type; a cause every body shares (a byte-order mark) is reported as that cause.
      if (judging.notJsonType) return 'stop'
      const fault = jsonTextFault(body)
      violate(
        'body-schema',
        fault?.where ?? `${bodyWhere(judging)} body is not JSON`,
        `${name} ${status} body is not JSON.${fault ? ` ${fault.message}` : ''}`,
      )
      return 'stop'
    }
    // They conform (int64 is 64 bits); a frontend reading them with JSON.parse gets other numbers.
    if (containsBigInt(parsed)) recorder.notes.push(javascriptRounding)
    const schemaDeclared = declared?.schemaPointer !== undefined
    const validate = (value: unknown): Validation =>
      schemaDeclared
        ? contract.validateResponseBody(operation.id, status, value)
        : contract.validateSchema('Error', value)
    // Through Prism, int64s beyond 2^53 arrive rounded to doubles; the bounds themselves as ±2^63.
    const judged = exchange.prismViolations ? prismRounded(parsed) : parsed
    let validation = validate(judged)
    // A create's 201 shows what was stored. A sent value that comes back changed is the root cause, found
    // here at the create; its schema is judged on what the server should have echoed, so a value changed
    // out of range (2^63−1 rounded to 2^63) is not reported twice.
    const changed =
      (intent === 'valid' || intent === 'valid-or-refused') && status === 201
        ? changedOnCreate(params.body, parsed)
        : undefined
    if (
      (intent === 'valid' || intent === 'valid-or-refused') &&
      status === 201 &&
      replacedSurrogates(params.body, parsed)
    )
      recorder.notes.push(surrogateNote)
    if (changed) {
      violate('changed-value', changedValue.where, `${name}: ${changed.differences.join('; ')}.`, {
        cites: '/components/schemas/NewPet',
      })
      exchange.bodyUsable = false
      const root = exchange.violations.at(-1) as Violation
      const id = (parsed as { id?: unknown }).id
      if (id !== undefined) storedWrong.set(String(id), root)
      validation = validate(changed.asSent)
    }
    if (validation.ok) return undefined
    // A read's records: each broken one is named by its id, known ones are left out, the rest judged.
    const records = status === 200 && schemaDeclared ? brokenRecords(judged, validate, judging) : undefined
    if (records) {
      if (records.affectedBy) exchange.affectedBy = records.affectedBy
      for (const violation of recordViolations(records.broken, judging)) exchange.violations.push(violation)
      if (records.broken.length > 0) exchange.bodyUsable = false
      return undefined
    }
    exchange.bodyUsable = false
    // One body is one violation, however many fields it gets wrong: `{}` for a Pet is one defect.
    const [first] = validation.errors
    if (first)
      violate(
        'body-schema',
        schemaWhere(first.message),
        `${name} ${status} body breaks the contract: ${validation.errors.map((error) => error.message).join('; ')}.`,
        { cites: (declared?.schemaPointer ?? '#/components/schemas/Error').replace(/^#/, '') },
      )
    return undefined
  },
}

/** A body-schema `where` that does not depend on which list item or request showed it. */
function schemaWhere(message: string): string {
  return `body ${message.replace(/\/\d+(?=\/|\s|$)/g, '').replace(/^body\s+/, '')}`
}

function replacedSurrogates(sentText: string | undefined, served: unknown): boolean {
  const sent = parseJson(sentText)
  return isRecord(sent) && isRecord(served) && surrogatesReplaced(sent as NewPet, served).length > 0
}

/** What a create's 201 changed of the fields it was sent, and the body as it should have been. */
function changedOnCreate(sentText: string | undefined, served: unknown) {
  const sent = parseJson(sentText)
  if (!isRecord(sent) || !isRecord(served)) return undefined
  const fields = changedFields(sent as NewPet, served)
  if (fields.length === 0) return undefined
  return {
    differences: differences(sent as NewPet, served),
    asSent: { ...served, ...Object.fromEntries(fields.map((field) => [field, sent[field]])) },
  }
}

const javascriptRounding =
  'The server sends int64 values beyond 2^53 (valid: int64 is 64 bits). JavaScript clients that read them with JSON.parse get them rounded; such clients need a lossless JSON parser, or the API a narrower range.'
