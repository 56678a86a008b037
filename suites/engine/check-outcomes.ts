// How a check ends other than by passing: failed, blocked, skipped, or stopped by the run's deadline.

import type { RuleId, Violation } from '../judging/index.ts'
import { describeExchange, type Exchange } from '../judging/index.ts'

/** What a check found wrong with the server: the check's own purpose failed. */
export class CheckFailure extends Error {
  override name = 'CheckFailure'
  readonly violation: Violation
  readonly exchange: Exchange | undefined
  constructor(violation: Violation, exchange?: Exchange) {
    super(violation.message)
    this.violation = violation
    this.exchange = exchange
  }
}

/** The check stopped because something it relies on is already a finding (its own or a shared step's). */
export class CheckBlocked extends Error {
  override name = 'CheckBlocked'
  readonly violation: Violation
  /** The answer the violation was read in, when a shared step (a fixture) read it rather than the check. */
  readonly exchange: Exchange | undefined
  constructor(violation: Violation, exchange?: Exchange) {
    super(`blocked by ${violation.rule}: ${violation.where}`)
    this.violation = violation
    this.exchange = exchange
  }
}

/** A check that cannot run against this target (say, read-only with no pets); reported as skipped. */
export class CheckSkipped extends Error {
  override name = 'CheckSkipped'
}

/** The run's deadline passed while the check was still waiting on the server. */
export class RunDeadlineReached extends Error {
  override name = 'RunDeadlineReached'
}

/** What a failed expectation is about: the rule, where, and the operation (default: the exchange's). */
export interface Expectation {
  rule: RuleId
  where: string
  operation?: string
  /** The contract's words it holds the server to, where the rule's own pointer is not the place. */
  cites?: string
}

/**
 * Fails the check unless `condition` holds: the check's purpose is not met, and `message` says how.
 * @example ensure(found.response.status === 404, { rule: 'wrong-status', where: 'getPet unknown id' }, 'GET ... answered 200', found)
 */
export function ensure(
  condition: unknown,
  expectation: Expectation,
  message: string,
  exchange?: Exchange,
): asserts condition {
  if (condition) return
  throw new CheckFailure(
    {
      rule: expectation.rule,
      operation: expectation.operation ?? exchange?.operation ?? '',
      where: expectation.where,
      ...(expectation.cites === undefined ? {} : { cites: expectation.cites }),
      message,
      ...(exchange ? { exchange: describeExchange(exchange) } : {}),
    },
    exchange,
  )
}
