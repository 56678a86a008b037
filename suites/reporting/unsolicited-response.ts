// The one unsolicited-response finding, and the results it sets aside as read from a desynced connection.
import type { CheckResult } from '../engine/index.ts'
import { type Finding, findingId, groupFindings, type Violation } from '../judging/index.ts'
import type { DesyncFacts } from '../network/index.ts'

const where = 'responses nobody asked for on a kept-alive connection'

/** The one finding of a run that saw unsolicited responses, on the operations whose answers it spoiled. */
function unsolicited(facts: DesyncFacts, operation: string): Violation {
  const { first } = facts
  const starting = first.statusLine ? `, starting "${first.statusLine}"` : ''
  // The request the server answered twice, as the suite sent it (never the server's text).
  const after = first.after === undefined ? '' : `, after its answer to ${first.after}`
  const what =
    first.how === 'idle'
      ? `${first.bytes} bytes nobody asked for on an idle kept-alive connection${starting}${after}`
      : `a response nobody asked for on a kept-alive connection${starting}${after}`
  const times = facts.count > 1 ? ` (seen ${facts.count} times)` : ''
  return {
    rule: 'unsolicited-response',
    operation,
    where,
    message: `The server sent ${what}${times}. Such a response is taken as the answer of the next request sent on that connection, so answers that came on it may be other requests’ (RFC 9112 §9.3.2); the connection was dropped, a read that got two answers was sent again on a connection of its own, the run went on with a connection per request, and checks that read other answers from such a connection are blocked by this.`,
  }
}

/**
 * Results the desync may have spoiled, set aside: a check that read an answer on a suspect connection is
 * blocked by the one unsolicited-response finding (never failed, nor passed, on an answer that may be
 * another request's); so is a check blocked or affected only by what such checks saw, and the coverage
 * check, which reads every answer. One defect, reported once at its root.
 */
export function setAsideDesynced(results: CheckResult[], facts: DesyncFacts | undefined): CheckResult[] {
  if (!facts) return results
  const suspect = new Set(facts.connections)
  const spoiledOn = (result: CheckResult) =>
    result.connections?.find(([connection]) => suspect.has(connection))?.[1]
  const spoiled = new Set<CheckResult>()
  for (const result of results)
    if (['passed', 'failed', 'blocked'].includes(result.outcome) && spoiledOn(result) !== undefined)
      spoiled.add(result)
  // What only spoiled checks saw is no finding: others blocked or affected by it point at the root.
  const trusted = new Set(
    results.filter((result) => !spoiled.has(result)).flatMap((result) => result.violations.map(findingId)),
  )
  const tainted = new Set(
    [...spoiled]
      .flatMap((result) => [...result.violations, ...(result.blockedBy ? [result.blockedBy] : [])])
      .map(findingId)
      .filter((id) => !trusted.has(id)),
  )
  const fallback = results.find((result) => spoiled.has(result))
  const root = unsolicited(facts, (fallback && spoiledOn(fallback)) ?? '')
  const blocked = (result: CheckResult, operation: string | undefined): CheckResult => {
    const { affectedBy: _, ...rest } = result
    const by = operation === undefined ? root : { ...root, operation }
    return {
      ...rest,
      outcome: 'blocked',
      message: `blocked by ${findingId(by)}`,
      violations: [],
      blockedBy: by,
    }
  }
  return results.map((result) => {
    if (spoiled.has(result)) return blocked(result, spoiledOn(result))
    if (result.group === 'coverage' && ['failed', 'blocked'].includes(result.outcome))
      return blocked(result, undefined)
    if (result.blockedBy && tainted.has(findingId(result.blockedBy))) return blocked(result, undefined)
    const affectedBy = result.affectedBy?.filter((violation) => !tainted.has(findingId(violation)))
    if (!result.affectedBy || affectedBy?.length === result.affectedBy.length) return result
    const { affectedBy: _, ...rest } = result
    return affectedBy && affectedBy.length > 0 ? { ...rest, affectedBy } : rest
  })
}

/** The finding on its own, for a run where no check read an answer from a suspect connection. */
export function unsolicitedFinding(facts: DesyncFacts): Finding {
  const [finding] = groupFindings([{ name: '', violations: [unsolicited(facts, '')] }]) as [Finding]
  return { ...finding, operations: [], checks: [] }
}
