// The shape of a response check and of the judging it reads and writes, with helpers the checks share.
import { contract } from '../../../contract/index.ts'
import type { Operation } from '../../../contract/operations.ts'
import { describeExchange, type Exchange } from '../exchange.ts'
import type { Violation } from '../findings.ts'
import type { Recorder } from '../recorder.ts'
import type { SendParams } from '../request-intent.ts'
import type { RuleId } from '../rules.ts'

/** One response being judged, and what the checks before this one learnt of it. */
export interface Judging {
  exchange: Exchange
  operation: Operation
  params: SendParams
  recorder: Recorder
  /** Ids of pets known to be stored wrong, with their finding: reads that show them are affected by it. */
  storedWrong: Map<string, Violation>
  /** Ids of pets this run created: any other pet a server serves was stored before the run. */
  createdIds: ReadonlySet<string>
  /** Judged again once pending creates are answered: what it finds is not remembered for other reads. */
  tentative?: boolean
  /** `GET /pets/{petId}`: how the reports name the operation. */
  name: string
  /** The operation's declared response for this status, if any. */
  declared: Operation['responses'][number] | undefined
  /** Set by the content-type check: the body is not declared as JSON, so a body that does not parse is that defect. */
  notJsonType?: boolean
  violate(rule: RuleId, where: string, message: string, extra?: Partial<Violation>): void
}

/**
 * One named check every response goes through, whichever check sent the request. `stop` ends the judging of
 * this response: what follows would only report the same root cause again.
 */
export interface ResponseCheck {
  name: string
  /** The rules it can report. */
  rules: readonly RuleId[]
  judge(judging: Judging): 'stop' | undefined
}

/** What the judging of one response starts from. */
export function startJudging(
  exchange: Exchange,
  operation: Operation,
  params: SendParams,
  recorder: Recorder,
  storedWrong: Map<string, Violation>,
  createdIds: ReadonlySet<string>,
): Judging {
  return {
    exchange,
    operation,
    params,
    recorder,
    storedWrong,
    createdIds,
    name: `${exchange.request.method} ${operation.path}`,
    declared: declaredResponse(operation, exchange.response.status),
    violate: (rule, where, message, extra) =>
      exchange.violations.push({
        rule,
        operation: operation.id,
        where,
        message,
        exchange: describeExchange(exchange),
        ...extra,
      }),
  }
}

export function declaredResponse(operation: Operation, status: number) {
  const code = String(status)
  return operation.responses.find((response) => response.status === code)
}

// The contract's only body type: an operation's `schemaPointer` is the schema of its application/json content.
export const declaredMediaType = 'application/json'

/** Whether the response has a body the contract defines: a declared schema, or an Error (any 4xx/5xx). */
export function bodyDefined({ declared, exchange }: Judging): boolean {
  return declared?.schemaPointer !== undefined || exchange.response.status >= 400
}

/** Where a body's defect is, worded the same whichever request showed it. */
export function bodyWhere({ operation, exchange }: Judging): string {
  const { status } = exchange.response
  return status >= 400 ? 'Error responses' : `${operation.id} ${status}`
}

/**
 * The schema's own words at a JSON pointer into the contract (`type integer, minimum 1, maximum 100`,
 * `one of available, pending, sold`), for messages that quote what the contract says.
 */
export function schemaWords(pointer: string): string | undefined {
  let node: unknown = contract.document
  for (const raw of pointer.replace(/^#/, '').split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined
  }
  if (typeof node !== 'object' || node === null) return undefined
  const schema = node as Record<string, unknown>
  const words = [
    ...(typeof schema.type === 'string' ? [`type ${schema.type}`] : []),
    ...(Array.isArray(schema.enum) ? [`one of ${schema.enum.join(', ')}`] : []),
    ...(typeof schema.minimum === 'number' ? [`minimum ${schema.minimum}`] : []),
    ...(typeof schema.maximum === 'number' ? [`maximum ${schema.maximum}`] : []),
  ]
  return words.length > 0 ? words.join(', ') : undefined
}
