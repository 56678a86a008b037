/**
 * The rules a server can break, each a root cause a person can act on. A check that sees a rule broken
 * records a Violation; the report groups violations into Findings, so one defect is reported once however
 * many checks saw it.
 */
export type RuleId =
  /** A 5xx: never acceptable, whatever was sent. */
  | 'server-error'
  /** A valid request answered with a status the operation does not declare. */
  | 'undeclared-status'
  /** A declared status, but not the one the request calls for (404 for a pet that exists, 400 for a valid body). */
  | 'wrong-status'
  /** A request without a valid key was not refused with 401. */
  | 'auth'
  /** A request that breaks the contract was answered 2xx. */
  | 'invalid-accepted'
  | 'content-type'
  | 'body-schema'
  /** An Error body whose `status` differs from the HTTP status. */
  | 'error-status'
  | 'header'
  /** A page longer than `limit` (or than the default 20). */
  | 'limit'
  /** A filtered list holding pets of another status. */
  | 'filter'
  /** A created pet that cannot be read back, or is missing from its filtered list while that page is not full. */
  | 'lost-write'
  /** A pet read back differs from what was sent. */
  | 'changed-value'
  | 'duplicate-id'
  /** The server used the id the client sent instead of assigning its own. */
  | 'client-id'
  /** A method the contract does not declare on a path was served (2xx), or refused with 405 but no Allow. */
  | 'unsupported-method'
  /** No complete response within the deadline, or the connection closed mid-response. */
  | 'no-response'
  | 'response-too-large'
  /** Prism's validating proxy reported a violation the suite's own checks did not already explain. */
  | 'prism'
  /** A declared operation × status pair no request produced. */
  | 'coverage'

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
}

/** One defect, reported once: the rule, where it failed, the operations and checks that saw it. */
export interface Finding {
  id: string
  rule: RuleId
  where: string
  operations: string[]
  /** The first message seen; the others differ only in the value that showed it. */
  message: string
  /** The checks that failed on it. */
  checks: string[]
  /** The checks that could not run because of it. */
  blocked: string[]
  example?: string
  /** The example's request as a shell command (`curl …`) that sends it again. */
  replay?: string
}

/** The identity of a root cause: checks seeing the same rule broken at the same place share a finding. */
export function findingId(violation: Pick<Violation, 'rule' | 'where'>): string {
  return `${violation.rule}: ${violation.where}`
}

/** Groups what every check saw into distinct findings, in the order they were first seen. */
export function groupFindings(
  results: readonly { name: string; violations: readonly Violation[]; blockedBy?: Violation }[],
): Finding[] {
  const byId = new Map<string, Finding>()
  const add = (violation: Violation, check: string, role: 'checks' | 'blocked') => {
    const id = findingId(violation)
    let finding = byId.get(id)
    if (!finding) {
      finding = {
        id,
        rule: violation.rule,
        where: violation.where,
        operations: [],
        message: violation.message,
        checks: [],
        blocked: [],
      }
      byId.set(id, finding)
    }
    if (!finding.operations.includes(violation.operation)) finding.operations.push(violation.operation)
    if (!finding[role].includes(check)) finding[role].push(check)
    // The example and its replay come from one violation, so the command sends the request shown.
    if (finding.example === undefined && violation.exchange !== undefined) {
      finding.example = violation.exchange
      if (violation.replay !== undefined) finding.replay = violation.replay
    }
  }
  for (const result of results) {
    for (const violation of result.violations) add(violation, result.name, 'checks')
    if (result.blockedBy) add(result.blockedBy, result.name, 'blocked')
  }
  return [...byId.values()]
}

/** A body-schema `where` that does not depend on which list item or request showed it. */
export function schemaWhere(message: string): string {
  return `body ${message.replace(/\/\d+(?=\/|\s|$)/g, '').replace(/^body\s+/, '')}`
}
