// Runs one check and turns what it throws into a plain result: passed, failed, blocked, skipped, errored.
import type { Exchange } from '../judging/index.ts'
import { findingId, replayCommand, rules, standaloneRules, type Violation } from '../judging/index.ts'
import { type Check, createCheckContext, type RunState } from './check-context.ts'
import { CheckBlocked, CheckFailure, CheckSkipped, RunDeadlineReached } from './check-outcomes.ts'

/**
 * What became of a check:
 * - `failed`: it saw the server break a rule; `blocked`: a step it needs is already a finding, so it
 *   could not judge (not counted as another failure); `skipped`: this target gives no way to run it;
 * - `not-checked`: left out by the mode (`--read-only`); `timed-out`: still waiting when the run's deadline
 *   passed; `errored`: the suite itself went wrong (not the server's fault).
 */
export type Outcome = 'passed' | 'failed' | 'blocked' | 'skipped' | 'not-checked' | 'timed-out' | 'errored'

/** One check's result: plain data, the same for every reporter. */
export interface CheckResult {
  group: string
  /** The check's purpose. */
  name: string
  outcome: Outcome
  /** Why it failed (its own purpose first), was blocked, skipped or errored. */
  message?: string
  /** The rules it saw broken, its purpose's first. */
  violations: Violation[]
  blockedBy?: Violation
  /**
   * Findings of other checks its reads showed (a record already reported broken): the check judged the
   * rest of what it read, and lists these instead of failing on them again.
   */
  affectedBy?: Violation[]
  warnings: string[]
  /** Advice for the contract's owner (see Recorder). */
  advice: string[]
  /** Remarks about the tools rather than the server (Prism's false positives). */
  notes: string[]
  /**
   * The `operation status` pairs its requests got (`listPets 200`, `createPet 400`), for the coverage
   * matrix; absent on results no check produced (a suite error).
   */
  exercised?: string[]
  /** How many requests it sent (for the progress line). */
  requests?: number
  /**
   * The connections its answers came on, each with the first operation answered there: a connection later
   * found desynced spoils them (unsolicited-response.ts). Bookkeeping only: `buildReport` drops it.
   */
  connections?: [connection: number, operation: string][]
}

/**
 * Runs one check in its own context and turns what it throws into a result. The check's own purpose is
 * judged first; rules its responses broke on the side come after, minus those on the very exchange that
 * failed its purpose (one root cause, one report).
 */
export async function runCheck(
  check: Check,
  run: RunState,
  stageBegun?: Promise<void>,
  wroteLast?: () => void,
): Promise<CheckResult> {
  const context = createCheckContext(run, stageBegun, wroteLast)
  const { recorder } = context
  // The answers behind its failure or block that a shared step read, not the check: a connection later
  // found desynced spoils the check through them too.
  const behind: Exchange[] = []
  const result = await judgeCheck(check, context, run.claimedRecords, behind)
  const pairs = recorder.exchanges.flatMap((exchange) => (exchange.pair === undefined ? [] : [exchange.pair]))
  const connections = new Map<number, string>()
  for (const { response, operation } of [...recorder.exchanges, ...behind])
    if (response.connection !== undefined && !connections.has(response.connection))
      connections.set(response.connection, operation)
  return {
    ...result,
    exercised: [...new Set(pairs)],
    requests: recorder.exchanges.length,
    ...(connections.size > 0 ? { connections: [...connections] } : {}),
  }
}

async function judgeCheck(
  check: Check,
  context: ReturnType<typeof createCheckContext>,
  claimedRecords: WeakSet<Violation>,
  behind: Exchange[],
): Promise<CheckResult> {
  const { recorder, target } = context
  const base: Pick<CheckResult, 'group' | 'name' | 'warnings' | 'advice' | 'notes' | 'affectedBy'> = {
    group: check.group,
    name: check.name,
    warnings: recorder.warnings,
    advice: recorder.advice,
    notes: recorder.notes,
  }
  let purpose: { violation: Violation; exchange: Exchange | undefined } | undefined
  let blockedBy: Violation | undefined
  try {
    // The census leaves with the first check; what may store something waits for it (check-context.ts), so
    // it counts what earlier runs left before this run's first create, and reads need not wait for it.
    context.fixtures.census().catch(() => {})
    await check.run(context)
  } catch (error) {
    if (error instanceof CheckSkipped)
      return { ...base, outcome: 'skipped', message: error.message, violations: [] }
    if (error instanceof RunDeadlineReached)
      return { ...base, outcome: 'timed-out', message: error.message, violations: [] }
    if (error instanceof CheckBlocked || error instanceof CheckFailure) {
      if (error instanceof CheckBlocked) blockedBy = error.violation
      else purpose = { violation: error.violation, exchange: error.exchange }
      if (error.exchange) behind.push(error.exchange)
    } else
      return {
        ...base,
        outcome: 'errored',
        message: `The suite itself failed in this check: ${(error as Error)?.stack ?? String(error)}`,
        violations: [],
      }
  }
  // With --policy off, what only the suite's policy asks for is a warning, labelled so, not a finding.
  const policyOff = target.policy === 'off'
  // Rules left out with --checks / --exclude-checks are not judged at all; a check that saw only those is
  // reported skipped, never passed.
  const excluded = new Set(target.excludedRules ?? [])
  const excludedSeen = new Set<string>()
  const judged = (violation: Violation) => {
    if (excluded.has(violation.rule)) {
      excludedSeen.add(violation.rule)
      return false
    }
    const kind = rules[violation.rule].kind
    if (kind === 'consumer' && target.pactDrift === 'warn') {
      recorder.warnings.push(`[consumer ${violation.rule}, warn] ${violation.message}`)
      return false
    }
    if (!policyOff || kind !== 'policy') return true
    recorder.warnings.push(`[policy ${violation.rule}, off] ${violation.message}`)
    return false
  }
  if (purpose && !judged(purpose.violation)) purpose = undefined
  const seen = new Set<string>()
  const causes = new Set<string>()
  const violations: Violation[] = []
  const affectedElsewhere: Violation[] = []
  // Violations are shared (an exchange several checks read, the run's "stopped answering"): copied, not changed.
  // One violation per root cause and operation: the same defect seen on two operations is one finding on
  // both, whichever of its exchanges was answered first (keyed by the cause alone, the first answer won).
  const add = (violation: Violation, exchange: Pick<Exchange, 'request'> | undefined) => {
    const id = onOperation(violation)
    if (seen.has(id) || !judged(violation)) return
    seen.add(id)
    causes.add(id)
    violations.push(
      exchange && violation.replay === undefined
        ? { ...violation, replay: replayCommand(exchange.request, target) }
        : violation,
    )
  }
  if (purpose) add(purpose.violation, purpose.exchange)
  for (const exchange of recorder.exchanges) {
    const failedPurpose = purpose !== undefined && exchange.request === purpose.exchange?.request
    for (const violation of exchange.violations) {
      // The exchange that failed the check's purpose is one root cause, but a leak is a defect of its own.
      if (failedPurpose && !standaloneRules.has(violation.rule)) continue
      // A list read that several checks share names its broken records once: the first check to report
      // it fails on it, the others are affected by it.
      if (violation.records !== undefined && claimedRecords.has(violation)) {
        affectedElsewhere.push(violation)
        continue
      }
      if (violation.records !== undefined) claimedRecords.add(violation)
      add(violation, exchange)
    }
  }
  // Its reads held records already reported broken: judged on the rest, affected by those findings, on
  // each operation that read them (the finding names them all, whichever read reported it first).
  const affectedBy = [
    ...new Map(
      recorder.exchanges
        .flatMap((exchange) =>
          exchange.affectedBy && !causes.has(onOperation(exchange.affectedBy))
            ? [[onOperation(exchange.affectedBy), exchange.affectedBy] as const]
            : [],
        )
        .concat(affectedElsewhere.map((violation) => [onOperation(violation), violation] as const)),
    ).values(),
  ]
  if (affectedBy.length > 0) base.affectedBy = affectedBy
  if (blockedBy && !violations.some((violation) => findingId(violation) === findingId(blockedBy)))
    return {
      ...base,
      outcome: violations.length > 0 ? 'failed' : 'blocked',
      message: `blocked by ${findingId(blockedBy)}${violations.length > 0 ? `; also saw ${violations.map(findingId).join('; ')}` : ''}`,
      violations,
      blockedBy,
    }
  if (violations.length === 0 && excludedSeen.size > 0)
    return {
      ...base,
      outcome: 'skipped',
      message: `excluded: it judged ${[...excludedSeen].join(', ')}, left out with --checks / --exclude-checks`,
      violations,
    }
  if (violations.length === 0) return { ...base, outcome: 'passed', violations }
  const [first, ...others] = violations as [Violation, ...Violation[]]
  const also =
    others.length > 0 ? `\nAlso seen: ${others.map((violation) => violation.message).join(' ')}` : ''
  return { ...base, outcome: 'failed', message: `${first.message}${also}`, violations }
}

/** A root cause on one operation: what a check reports once. */
const onOperation = (violation: Violation) => `${findingId(violation)}\0${violation.operation}`
