// Violations (a rule broken once) and Findings (one defect however many checks saw it), with stable ids.
import { createHash } from 'node:crypto'
import { consumerDriftSwitch, policySwitch, type RuleId, type RuleKind, ruleInfo, rules } from './rules.ts'

/**
 * The rules a server can break (listed in ./rules.ts), each a root cause a person can act on. A check that sees a rule broken
 * records a Violation; the report groups violations into Findings, so one defect is reported once however
 * many checks saw it.
 */
export type { RuleId } from './rules.ts'

/** One rule broken once, as one check saw it. */
export interface Violation {
  rule: RuleId
  /** The operation it was seen on (`listPets`, `GET /store/orders`). */
  operation: string
  /**
   * Where it failed, worded so the same root cause gets the same text whatever request showed it:
   * `query limit`, `body /id must be integer`, `a bearer token other than the key`.
   */
  where: string
  /** The sentence a person reads, naming the value at fault. */
  message: string
  /** The request and response that show it, as text. */
  exchange?: string
  /** That request as a shell command that sends it again, the key read from the environment. */
  replay?: string
  /** The ids of the stored records at fault, when the body is a read of records. */
  records?: string[]
  /** Where the contract says what was broken: a JSON pointer into contract/openapi.yaml. */
  cites?: string
}

/** One defect, reported once: the rule, where it failed, the operations and checks that saw it. */
export interface Finding {
  /**
   * Stable across runs: built from the rule, the operations and the place, never from a message, a value or
   * the seed, so the same defect keeps its id (a baseline file lists accepted findings by it).
   */
  id: string
  /** The grouping key: checks seeing the same rule broken at the same place share a finding. */
  key: string
  /** Keys of findings merged into this one (one root cause seen under several places). */
  keys?: string[]
  rule: RuleId
  /** `contract`: the contract's words are broken; `policy`: the suite's opinion where it is silent. */
  kind: RuleKind
  /** For a policy finding: the option that turns it off. */
  turnOff?: string
  where: string
  operations: string[]
  /** The first message seen; the others differ only in the value that showed it. */
  message: string
  /** The checks that failed on it. */
  checks: string[]
  /** The checks that could not run because of it. */
  blocked: string[]
  /** The checks whose reads showed it: they judged the rest and passed or failed on that. */
  affected: string[]
  /** Set when a --baseline accepts it: reported, marked accepted in every format, not failing the run. */
  accepted?: { baseline: string; reason: string; expires?: string }
  example?: string
  /** The example's request as a shell command (`curl …`) that sends it again. */
  replay?: string
  /** The ids of the records at fault, every one seen (reports show the first few and the count). */
  records?: string[]
  /** Where the contract says it: a JSON pointer into contract/openapi.yaml. */
  cites?: string
}

/**
 * A finding's stable id: the rule, then a short digest of the rule, its operations (sorted) and its place.
 * @example stableFindingId({ rule: 'limit', operations: ['listPets'], where: 'query limit' }) // 'limit-…'
 */
export function stableFindingId(finding: Pick<Finding, 'rule' | 'operations' | 'where'>): string {
  const digest = createHash('sha256')
    .update([finding.rule, [...finding.operations].sort().join(','), finding.where].join('\0'))
    .digest('hex')
    .slice(0, 8)
  return `${finding.rule}-${digest}`
}

/** The identity of a root cause: checks seeing the same rule broken at the same place share a finding. */
export function findingId(violation: Pick<Violation, 'rule' | 'where'>): string {
  return `${violation.rule}: ${violation.where}`
}

/** Groups what every check saw into distinct findings, in the order they were first seen. */
export function groupFindings(
  results: readonly {
    name: string
    violations: readonly Violation[]
    blockedBy?: Violation
    affectedBy?: readonly Violation[]
  }[],
): Finding[] {
  const byId = new Map<string, Finding>()
  const add = (violation: Violation, check: string, role: 'checks' | 'blocked' | 'affected') => {
    const id = findingId(violation)
    let finding = byId.get(id)
    if (!finding) {
      finding = {
        id,
        key: id,
        rule: violation.rule,
        kind: rules[violation.rule].kind,
        ...(rules[violation.rule].kind === 'policy' ? { turnOff: policySwitch } : {}),
        ...(rules[violation.rule].kind === 'consumer' ? { turnOff: consumerDriftSwitch } : {}),
        where: violation.where,
        operations: [],
        message: violation.message,
        checks: [],
        blocked: [],
        affected: [],
      }
      byId.set(id, finding)
    }
    if (!finding.operations.includes(violation.operation)) finding.operations.push(violation.operation)
    // A check that reports it on one operation and read it set aside on another is one of its checks.
    const reports = role === 'affected' && finding.checks.includes(check)
    if (!finding[role].includes(check) && !reports) finding[role].push(check)
    for (const record of violation.records ?? [])
      if (!finding.records?.includes(record)) finding.records = [...(finding.records ?? []), record]
    // Where the violation names no place of its own, the rule's place in the contract (registry).
    finding.cites ??= violation.cites ?? ruleInfo(violation.rule).pointer
    // The example and its replay come from one violation, so the command sends the request shown.
    // A violation with its replay wins over one without (a check affected by it carries none).
    const better =
      finding.example === undefined || (finding.replay === undefined && violation.replay !== undefined)
    if (better && violation.exchange !== undefined) {
      finding.example = violation.exchange
      if (violation.replay !== undefined) finding.replay = violation.replay
    }
  }
  for (const result of results) {
    for (const violation of result.violations) add(violation, result.name, 'checks')
    if (result.blockedBy) add(result.blockedBy, result.name, 'blocked')
    for (const violation of result.affectedBy ?? []) add(violation, result.name, 'affected')
  }
  return [...byId.values()].map((finding) => ({ ...finding, id: stableFindingId(finding) }))
}
