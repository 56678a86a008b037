// Which records of a read break the schema, named by id and judged once, so one bad record is one finding.
import { stringifyExactJson } from '../../../contract/exact-json.ts'
import { isRecord } from '../../../contract/openapi-document.ts'
import type { Validation } from '../../../contract/violations.ts'
import { describeExchange } from '../exchange.ts'
import type { Violation } from '../findings.ts'
import type { Judging } from './judging.ts'

/** A record a read served off the schema, named by its id. */
export interface BrokenRecord {
  id: string
  /** The field at fault, as a pointer within the record (`/status`), or `` for the record as a whole. */
  field: string
  /** The schema's own words for it: `must be one of available, pending, sold`, `is required`. */
  words: string
  /** The value served there (undefined when it is missing). */
  value: unknown
  /** Whether the record was on the server before this run created anything (not one of its creates). */
  storedBefore: boolean
}

// A finding names this many records, then says how many more.
const namedRecords = 5

/**
 * The records of a read that break the schema, each judged alone and named by its `id`; records already
 * reported are left out (the read is affected by their finding), and the exchange's JSON becomes the rest,
 * so the check that sent it judges the other records. Undefined when the body's defect is not one of its
 * records (not an array of records, or a record without an id).
 */
export function brokenRecords(
  body: unknown,
  validate: (value: unknown) => Validation,
  judging: Judging,
): { broken: BrokenRecord[]; affectedBy?: Violation } | undefined {
  const list = Array.isArray(body)
  const items: unknown[] = list ? body : [body]
  const broken: BrokenRecord[] = []
  let affectedBy: Violation | undefined
  const rest: unknown[] = []
  for (const item of items) {
    if (!isRecord(item) || !isId(item.id)) return undefined
    const id = String(item.id)
    const known = judging.storedWrong.get(id)
    if (known) {
      affectedBy ??= onThisRead(known, judging)
      continue
    }
    const validation = validate(list ? [item] : item)
    if (validation.ok) {
      rest.push(item)
      continue
    }
    const [first] = validation.errors
    if (!first) continue
    // The validator names the place within the body: `/0/status` in a list, `/status` for one record.
    const field = list ? first.at.replace(/^\/0(?=\/|$)/, '') : first.at
    // The record as a whole is off (not an object, another shape): a defect of the body, not of a field.
    if (field === '') return undefined
    const words = first.message.slice(first.message.indexOf(first.at) + first.at.length).trim()
    broken.push({
      id,
      field,
      words,
      value: field === '' ? item : item[field.slice(1).split('/')[0] ?? ''],
      storedBefore: !judging.createdIds.has(id),
    })
  }
  if (broken.length === 0 && !affectedBy) return undefined
  if (list) {
    judging.exchange.json = rest
    judging.exchange.setAside = items.length - rest.length
  }
  return { broken, ...(affectedBy ? { affectedBy } : {}) }
}

/**
 * One violation per (rule, field): records broken the same way are one defect, listed by id. Each broken
 * record is remembered, so every later read that shows it is affected by this finding, not failed again.
 */
export function recordViolations(broken: readonly BrokenRecord[], judging: Judging): Violation[] {
  const { exchange, operation, name, storedWrong } = judging
  const groups = new Map<string, BrokenRecord[]>()
  for (const record of broken) {
    const key = `${record.storedBefore}\0${record.field}\0${record.words}`
    groups.set(key, [...(groups.get(key) ?? []), record])
  }
  const violations: Violation[] = []
  for (const records of groups.values()) {
    const [first] = records as [BrokenRecord, ...BrokenRecord[]]
    const ids = records.map((record) => record.id)
    const what = records
      .slice(0, namedRecords)
      .map((record) => `pet ${record.id} ${described(record)}`)
      .join(', ')
    const more = records.length > namedRecords ? ` and ${records.length - namedRecords} more` : ''
    const fieldName = first.field === '' ? 'the record' : first.field.slice(1)
    const rule = first.storedBefore ? 'stored-record' : 'body-schema'
    const violation: Violation = {
      rule,
      operation: operation.id,
      where: first.storedBefore
        ? `stored records: ${fieldName} ${first.words}`
        : `body ${first.field} ${first.words}`.replace(/ {2,}/g, ' '),
      message: first.storedBefore
        ? `${name} serves ${what}${more}, stored before this run: the contract says ${fieldName} ${first.words}. Every read that shows ${records.length === 1 ? 'it' : 'them'} breaks the schema; fix or migrate the record${records.length === 1 ? '' : 's'}.`
        : `${name} serves ${what}${more}: the contract says ${fieldName} ${first.words}.`,
      exchange: describeExchange(exchange),
      records: ids,
      cites: citation(first.field),
    }
    if (!judging.tentative) for (const id of ids) storedWrong.set(id, violation)
    violations.push(violation)
  }
  return violations
}

/**
 * A record reported broken as served (its violation names records), now read again: the defect is in every
 * read that serves it, so the finding names this read's operation too, whichever read reported it first
 * (timing). A record a create stored wrong stays on its root, the create.
 */
function onThisRead(known: Violation, judging: Judging): Violation {
  const served = known.records !== undefined && known.operation !== judging.operation.id
  return served ? { ...known, operation: judging.operation.id } : known
}

function described(record: BrokenRecord): string {
  if (record.field === '') return 'off the schema'
  const field = record.field.slice(1)
  return record.value === undefined ? `without ${field}` : `with ${field} ${stringifyExactJson(record.value)}`
}

/** Where the contract says what the field must be (a JSON pointer into openapi.yaml). */
function citation(field: string): string {
  const name = field.slice(1).split('/')[0] ?? ''
  if (name === 'id') return '/components/schemas/Pet/allOf/1/properties/id'
  if (name === 'status') return '/components/schemas/PetStatus'
  if (name === 'name' || name === 'categoryId') return `/components/schemas/NewPet/properties/${name}`
  return '/components/schemas/Pet'
}

function isId(value: unknown): value is number | bigint | string {
  return typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string'
}
