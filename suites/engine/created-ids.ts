// The ids of the pets the run's creates stored: every 2xx create's, whatever the request meant.
import { type Exchange, jsonOf } from '../judging/index.ts'
import type { Transport } from './transport.ts'

/**
 * The id a createPet answered 2xx with: a pet stored, so the run's, whether its request was valid, invalid
 * or another spelling. Undefined when the answer was not 2xx or names no id. Int64s beyond 2^53 are
 * bigints, exact.
 */
export function createdIdOf(exchange: Exchange): number | bigint | string | undefined {
  const { status } = exchange.response
  if (exchange.operation !== 'createPet' || status < 200 || status > 299) return undefined
  const id = (jsonOf(exchange) as { id?: unknown } | null | undefined)?.id
  return typeof id === 'number' || typeof id === 'bigint' || typeof id === 'string' ? id : undefined
}

/**
 * Makes the pet a create stored known as the run's before the create settles, so a read that waited for
 * the creates in flight never takes it for a record stored before the run. An invalid request it stored
 * is that acceptance's damage: a read that serves it off the schema is affected by the invalid-accepted
 * finding, reported once at the create.
 */
export function claimCreated(transport: Transport, exchange: Exchange): void {
  const id = createdIdOf(exchange)
  if (id === undefined) return
  transport.createdIds.add(String(id))
  const accepted = exchange.violations.find((violation) => violation.rule === 'invalid-accepted')
  if (accepted && !transport.storedWrong.has(String(id))) transport.storedWrong.set(String(id), accepted)
}
