// The response checks in judging order, and the functions that run them on an exchange (Prism's last).
import type { Operation } from '../../../contract/operations.ts'
import type { Exchange } from '../exchange.ts'
import type { Violation } from '../findings.ts'
import type { Recorder } from '../recorder.ts'
import type { SendParams } from '../request-intent.ts'
import { bodySchemaCheck } from './body-schema.ts'
import { challengeCheck } from './challenge.ts'
import { contentTypeCheck } from './content-type.ts'
import { errorShapeCheck } from './error-shape.ts'
import { headersCheck } from './headers.ts'
import type { ResponseCheck } from './judging.ts'
import { startJudging } from './judging.ts'
import { leakedInternalsCheck } from './leaked-internals.ts'
import { prismViolationsCheck } from './prism-violations.ts'
import { statusCheck } from './status.ts'
import { uniqueMembersCheck } from './unique-members.ts'

/**
 * The rules every response must keep, whichever check sent the request, in the order they are judged:
 * a check that finds the root cause (a wrong status, a body that is not JSON) stops those after it.
 * Member names given twice come last: a check that reads a response takes its first violation as the
 * root cause, and a body read as JSON that repeats a name is still judged on the value the suite read.
 */
export const responseChecks: readonly ResponseCheck[] = [
  statusCheck,
  contentTypeCheck,
  bodySchemaCheck,
  errorShapeCheck,
  headersCheck,
  uniqueMembersCheck,
]

/** Judged on every response after those above, whatever they found or stopped: a defect of its own. */
export const everyResponseChecks: readonly ResponseCheck[] = [leakedInternalsCheck, challengeCheck]

/** The rules those report: each a finding of its own, even on a response that failed a check's purpose. */
export const standaloneRules: ReadonlySet<string> = new Set(
  everyResponseChecks.flatMap((check) => check.rules),
)

/** Runs the response checks on one exchange, recording what they find on it. */
export function judgeResponse(
  exchange: Exchange,
  operation: Operation,
  params: SendParams,
  recorder: Recorder,
  run: { storedWrong: Map<string, Violation>; createdIds: ReadonlySet<string>; tentative?: boolean },
): void {
  const judging = startJudging(exchange, operation, params, recorder, run.storedWrong, run.createdIds)
  if (run.tentative) judging.tentative = true
  for (const check of responseChecks) if (check.judge(judging) === 'stop') break
  for (const check of everyResponseChecks) check.judge(judging)
}

/** Prism's violations, judged once the response's own checks have run (they explain most of them). */
export function judgePrism(exchange: Exchange, operation: Operation, recorder: Recorder): void {
  prismViolationsCheck.judge(
    startJudging(exchange, operation, { intent: 'valid' }, recorder, new Map(), new Set()),
  )
}
