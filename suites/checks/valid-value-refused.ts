// The one judgement of a valid value refused (valid-value-refused): one finding per field, whichever check sent it.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import { type CheckContext, ensure } from '../engine/index.ts'
import type { SendParams } from '../judging/index.ts'
import { validBodies } from '../values/index.ts'

/** A value the contract allows, in the field it was sent in, and what a server refusing it can do. */
export interface ValidValue {
  /** The body field the value is in (`name`): the finding's place, so every check that sent one shares it. */
  field: string
  /** The value in words: `name empty`, `name holding a NUL "\u0000" inside it`. */
  label: string
  /** Accept it, or state the rule in the contract (with the keyword that would say it). */
  advice: string
}

// Roots of their own, which the status check already reported: not a judgement of the value sent.
const ownRoots = new Set(['server-error', 'undeclared-status', 'auth', 'no-response'])

/**
 * A `send` for createPet that judges a 4xx to a valid value as `valid-value-refused`: the contract's 400 is
 * for "missing required fields or invalid values", and this value is neither. An answer whose status already
 * broke a rule of its own (an undeclared 4xx) is left to that rule. A server that refuses the run's plain
 * creates too refuses more than this value: those creates' finding blocks the check instead.
 */
export function refusingValidValue(context: CheckContext, value: ValidValue): Pick<CheckContext, 'send'> {
  return {
    async send(operationId: string, params: SendParams) {
      const exchange = await context.send(operationId, params)
      const { status } = exchange.response
      const root = exchange.violations[0]?.rule
      if (status < 400 || status > 499 || status === 401 || (root && ownRoots.has(root))) return exchange
      await context.fixtures.createdPets()
      ensure(
        false,
        { rule: 'valid-value-refused', where: `createPet refuses valid ${value.field} values` },
        `POST /pets refused a body with ${value.label} (${status}); the contract allows that value. ${value.advice}`,
        exchange,
      )
      return exchange
    },
  }
}

/**
 * After a create of a valid body was refused with a declared 4xx, finds the field at fault by sending each
 * of its values alone in an otherwise plain body, judged as above: a server that refuses `categoryId: 0`
 * refuses it here too, and the refusal becomes that field's one finding wherever the body came from (the
 * stateful model's random bodies). Returns when no single value is refused: the refusal stays the caller's.
 */
export async function judgeRefusedFields(
  context: CheckContext,
  body: Record<string, unknown>,
): Promise<void> {
  const bodies = validBodies('createPet')
  for (const [field, value] of Object.entries(body)) {
    const same = bodies.find((one) => one.field === field && sameValue(one.value[field], value))
    const base = same ?? bodies.find((one) => one.field === field)
    if (!base) continue
    const name = field === 'name' ? value : `${context.fixtures.runId} value`
    const probe = { ...base.value, name, [field]: value }
    const label = same?.label ?? `${field} ${stringifyExactJson(value)}`
    const advice = same?.ifRefused ?? base.ifRefused ?? ''
    await refusingValidValue(context, { field, label, advice }).send('createPet', {
      intent: 'valid',
      body: stringifyExactJson(probe),
    })
  }
}

function sameValue(one: unknown, other: unknown): boolean {
  return typeof one === typeof other && stringifyExactJson(one) === stringifyExactJson(other)
}
