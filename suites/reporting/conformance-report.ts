// The report model every format reads, and how it is built from check results: findings, totals, verdict.
// The document alone: the loader (contract/index.ts) would bring every compiled validator into the command's start.
import { openapiDocument } from '../../contract/openapi.gen.ts'
import type { ConsumerDeprecatedUse, CoverageRow } from '../checks/index.ts'
import type { CheckResult, Outcome } from '../engine/index.ts'
import { type Finding, findingId, groupFindings, stableFindingId, type Violation } from '../judging/index.ts'
import type { DesyncFacts, TrafficFacts } from '../network/index.ts'
import type { BaselineOutcome } from './baseline-file.ts'
import type { ExitReason } from './exit-reason.ts'
import type { RunComparison } from './run-comparison.ts'
import { setAsideDesynced, unsolicitedFinding } from './unsolicited-response.ts'

/** The version of conformance.json's shape: a reader of an earlier run's report (--previous) refuses another. */
export const reportFormat = 1

/** A whole run as data: every reporter (console, JUnit, JSON, Markdown) is a function of this. */
export interface ConformanceReport {
  /** This report's shape, `reportFormat`: what a later run's --previous checks before reading it. */
  format: typeof reportFormat
  /** The `info.version` of the contract the run judged against. */
  contractVersion: string
  /** `seed` replays the run's generated requests: `--seed`. */
  target: {
    baseUrl: string
    readOnly: boolean
    viaPrism: boolean
    seed: number
    /** The command the user ran, for replay lines: `npx animal-store-conformance`, `npm run conformance --`. */
    command?: string
  }
  startedAt: string
  finishedAt: string
  durationMs: number
  /**
   * - `conforms`: no finding; `does-not-conform`: at least one finding (exit 1);
   * - `incomplete`: the run could not judge the server (exit 2; `reason` says why).
   */
  verdict: 'conforms' | 'does-not-conform' | 'incomplete'
  totals: Record<Outcome, number> & { checks: number; findings: number; warnings: number }
  /** Distinct defects, each once, with the checks that saw it. */
  findings: Finding[]
  checks: CheckResult[]
  coverage: CoverageRow[]
  /** What the run left on the target: the API cannot delete what it created. */
  created: {
    count: number
    namePrefix: string
    ids?: string[]
    /** Ids of pets earlier runs created that this run’s reading checks used instead of creating (engine/tagged-pets.ts). */
    reused?: string[]
    /** The pets tagged by earlier runs seen before this run created any. */
    tagged?: TaggedCount
    /** `--max-created-total`: more tagged pets than this stops the creates, and the run exits 2. */
    maxTotal?: number
  }
  /** Requests sent, throttled, retried, seconds waited and the effective rate. */
  traffic?: TrafficFacts
  /** What this mode cannot see. */
  limitations: string[]
  /** What the server does that a person may want to look at, though the contract allows it; each once. */
  warnings: string[]
  /** What the contract's owner may want to change (a status servers answer that it does not declare). */
  advice: string[]
  notes: string[]
  /** Checks still waiting when the run's deadline passed. */
  pending: string[]
  /**
   * The peak resident memory of the run's processes, each as the operating system reports its own, summed:
   * an upper bound of what they held at once (suites/run/run-memory.ts says which processes).
   */
  peakRssBytes: number
  /** Rules left out with --checks / --exclude-checks: not judged, reported as excluded (never as passed). */
  excludedRules?: string[]
  /** What a --baseline accepted: known findings (not failing the run), expired and stale entries. */
  baseline?: BaselineOutcome
  /** Why the run exited 2 (present exactly then): docs/conformance.md lists the kinds. */
  reason?: ExitReason
  /** What changed since the run of a --previous report: new, fixed and still-open findings. */
  previous?: RunComparison
  /** Deprecated operations that consumers' recorded interactions (--pact) call: each line says until when. */
  deprecatedUse?: ConsumerDeprecatedUse[]
}

export interface RunFacts {
  target: ConformanceReport['target']
  startedAt: Date
  finishedAt: Date
  coverage: CoverageRow[]
  created: ConformanceReport['created']
  traffic?: TrafficFacts
  /** Checks the runner saw start but never finish (the run's hard deadline). */
  pending?: string[]
  /** What the run could not do as asked, said before it started (Prism left out, say). */
  limitations?: string[]
  /** Responses nobody asked for: the checks they spoiled are blocked by that one finding. */
  desync?: DesyncFacts
  /** The run's peak memory (`ConformanceReport.peakRssBytes`); this process's own peak when not given. */
  peakRssBytes?: number
  deprecatedUse?: ConsumerDeprecatedUse[]
}

/** Builds the report from the checks' results: findings grouped by root cause, totals, verdict. */
export function buildReport(judged: CheckResult[], facts: RunFacts): ConformanceReport {
  const results = oneFailurePerStoredRecord(setAsideDesynced(judged, facts.desync).map(withoutConnections))
  const outcomes: Outcome[] = [
    'passed',
    'failed',
    'blocked',
    'skipped',
    'not-checked',
    'timed-out',
    'errored',
  ]
  const count = (outcome: Outcome) => results.filter((result) => result.outcome === outcome).length
  const findings = withDesync(mergeStoredIntoCode(mergeAuthFindings(groupFindings(results))), facts.desync)
  const pending = [
    ...(facts.pending ?? []),
    ...results
      .filter((result) => result.outcome === 'timed-out')
      .map((result) => `${result.group} › ${result.name}`),
  ]
  const incomplete = pending.length > 0 || count('errored') > 0
  const warnings = [...new Set(results.flatMap((result) => result.warnings))]
  return {
    format: reportFormat,
    contractVersion: openapiDocument.info.version,
    target: facts.target,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    durationMs: facts.finishedAt.getTime() - facts.startedAt.getTime(),
    verdict: incomplete ? 'incomplete' : findings.length > 0 ? 'does-not-conform' : 'conforms',
    totals: {
      checks: results.length,
      ...(Object.fromEntries(outcomes.map((outcome) => [outcome, count(outcome)])) as Record<
        Outcome,
        number
      >),
      findings: findings.length,
      warnings: warnings.length,
    },
    findings,
    checks: results,
    coverage: facts.coverage,
    created: facts.created,
    ...(facts.traffic ? { traffic: facts.traffic } : {}),
    limitations: [
      ...(facts.limitations ?? []),
      ...(facts.target.readOnly
        ? [
            `Read-only: ${count('not-checked')} checks that would create pets were not run. createPet (its validation, its auth, the 201 it answers) and whether created pets can be read back are not verified; getPet and the filters are checked only on the pets the server already lists.`,
          ]
        : []),
      ...(facts.target.viaPrism
        ? [
            'Through Prism: int64 values beyond 2^53 are not round-tripped (Prism re-serialises JSON through doubles, so they would come back rounded whatever the server stores), and requests carrying them go straight to the server. Run without --via-prism to check them.',
          ]
        : []),
    ],
    warnings,
    advice: [...new Set(results.flatMap((result) => result.advice))],
    notes: [...new Set(results.flatMap((result) => result.notes))],
    pending,
    peakRssBytes: facts.peakRssBytes ?? process.resourceUsage().maxRSS * 1024,
    ...(facts.deprecatedUse?.length ? { deprecatedUse: facts.deprecatedUse } : {}),
  }
}

// Which connection an answer came on is the suite's bookkeeping, never part of a report.
function withoutConnections({ connections: _, ...result }: CheckResult): CheckResult {
  return result
}

/** The run's unsolicited-response finding, reported even when no check read an answer it spoiled. */
function withDesync(findings: Finding[], desync: DesyncFacts | undefined): Finding[] {
  if (!desync || findings.some((finding) => finding.rule === 'unsolicited-response')) return findings
  return [unsolicitedFinding(desync), ...findings]
}

/**
 * One auth hole shows on every credential a check tries: an operation that ignores the key fails "no
 * credentials", "a wrong key" and "the key outside Bearer" alike. Auth findings seen on exactly the same
 * operations are one hole.
 */
/**
 * A record stored wrong before the run is one defect however many lists show it: the first check that
 * failed on it keeps the failure; another check that failed only on it passes, affected by it. Checks
 * read lists concurrently, so which of them saw it first in flight is timing; the order of the results
 * is not.
 */
function oneFailurePerStoredRecord(results: CheckResult[]): CheckResult[] {
  const owners = new Set<string>()
  const owned = results.map((result): CheckResult => {
    if (result.outcome !== 'failed') return result
    const kept: Violation[] = []
    const elsewhere: Violation[] = []
    for (const violation of result.violations) {
      const id = findingId(violation)
      if (violation.rule !== 'stored-record' || !owners.has(id)) {
        if (violation.rule === 'stored-record') owners.add(id)
        kept.push(violation)
      } else elsewhere.push(violation)
    }
    if (elsewhere.length === 0) return result
    const affectedBy = [...(result.affectedBy ?? []), ...elsewhere]
    if (kept.length > 0) return { ...result, violations: kept, affectedBy }
    const { message: _, ...rest } = result
    return { ...rest, outcome: 'passed', violations: [], affectedBy }
  })
  // And never none: when every check that read the record saw it already set aside (in flight), the
  // first of them fails on it.
  return owned.map((result): CheckResult => {
    const claim = result.affectedBy?.find(
      (violation) => violation.rule === 'stored-record' && !owners.has(findingId(violation)),
    )
    if (!claim || !['passed', 'failed'].includes(result.outcome)) return result
    owners.add(findingId(claim))
    const affectedBy = result.affectedBy?.filter((violation) => violation !== claim) ?? []
    const failed: CheckResult = {
      ...result,
      outcome: 'failed',
      message: result.outcome === 'failed' ? result.message : claim.message,
      violations: [claim, ...result.violations],
    }
    if (affectedBy.length > 0) failed.affectedBy = affectedBy
    else delete failed.affectedBy
    return failed
  })
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function mergeAuthFindings(findings: Finding[]): Finding[] {
  const merged: Finding[] = []
  for (const finding of findings) {
    const twin =
      finding.rule === 'auth'
        ? merged.find(
            (other) =>
              other.rule === 'auth' &&
              other.operations.length === finding.operations.length &&
              other.operations.every((operation) => finding.operations.includes(operation)),
          )
        : undefined
    if (!twin) {
      merged.push({
        ...finding,
        checks: [...finding.checks],
        blocked: [...finding.blocked],
        affected: [...finding.affected],
      })
      continue
    }
    absorb(twin, finding)
  }
  // A server that serves requests with no key, or with any key, also serves every near miss of the key
  // and every keyless spelling of them: auth findings on some of the same operations are that hole too
  // (near misses go to fewer operations than the plain bad keys, so the sets differ).
  // The widest such hole, not the first seen: checks send their probes at once, and the order their
  // answers came in must not decide which findings are folded into which.
  const keyless = merged
    .filter(
      (finding) =>
        finding.rule === 'auth' &&
        finding.where
          .split('; ')
          .some((where) => where === 'no credentials' || where === 'a bearer token other than the key'),
    )
    .sort((a, b) => b.operations.length - a.operations.length || compareText(a.where, b.where))[0]
  if (!keyless) return merged
  return merged.filter((finding) => {
    const within =
      finding !== keyless &&
      finding.rule === 'auth' &&
      finding.operations.every((operation) => keyless.operations.includes(operation))
    if (within) absorb(keyless, finding)
    return !within
  })
}

/**
 * Records broken the same way as a body this run's own creates got back are the server's code at fault,
 * not data stored before the run: such a stored-record finding joins that body-schema finding.
 */
function mergeStoredIntoCode(findings: Finding[]): Finding[] {
  return findings.filter((finding) => {
    if (finding.rule !== 'stored-record') return true
    const same = `body /${finding.where.replace(/^stored records: /, '')}`
    const code = findings.find((other) => other.rule === 'body-schema' && other.where === same)
    if (!code) return true
    code.operations = [...new Set([...code.operations, ...finding.operations])]
    code.checks.push(...finding.checks.filter((check) => !code.checks.includes(check)))
    code.affected.push(...finding.affected.filter((check) => !code.affected.includes(check)))
    code.records = [...new Set([...(code.records ?? []), ...(finding.records ?? [])])]
    code.keys = [...(code.keys ?? []), finding.key, ...(finding.keys ?? [])]
    code.id = stableFindingId(code)
    return false
  })
}

/**
 * Folds `finding` into `into`. Its places are joined in a fixed order, not the order they were seen: the
 * finding's id is built from them, and a baseline or a previous run matches findings by id.
 */
function absorb(into: Finding, finding: Finding): void {
  into.where = [...new Set([...into.where.split('; '), ...finding.where.split('; ')])].sort().join('; ')
  into.key = `auth: ${into.where}`
  into.operations = [...new Set([...into.operations, ...finding.operations])]
  into.id = stableFindingId(into)
  into.checks.push(...finding.checks)
  into.blocked.push(...finding.blocked)
  into.affected.push(...finding.affected)
}

/**
 * How many pets named with the kit's tag the run saw before its first create, on the first page of 100 of
 * the unfiltered list and of each status filter (the contract pages no further).
 */
export interface TaggedCount {
  seen: number
  /** A page was full: there may be more than `seen`. */
  atLeast: boolean
  /** The pages could not be read: nothing is known. */
  unknown?: boolean
}
