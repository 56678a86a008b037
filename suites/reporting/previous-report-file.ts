// An earlier run's conformance.json (--previous), read as untrusted input: shape checked, texts bounded. Pure.
import { clip } from '../output/index.ts'
import { type ConformanceReport, reportFormat } from './conformance-report.ts'
import type { ComparedFinding, PreviousRun } from './run-comparison.ts'

/**
 * The previous report may come from a CI artefact anyone with push access could have replaced, and its
 * texts came from a server in the first place: it is read like a server's answer. Only what the
 * comparison needs is kept, each text cut to a bound, and every format passes it through the output
 * boundary like any other text of the report.
 */

/** More findings than any run of this kit reports (one per rule and place): a file holding more is not one. */
export const maxPreviousFindings = 5_000

// A finding id is `rule-` and 8 hex digits of its rule, operations and place (judging/findings.ts).
const idPattern = /^[a-z][a-z0-9-]{0,63}-[0-9a-f]{8}$/
const rulePattern = /^[a-z][a-z0-9-]{0,63}$/
// Keyed by the report's own verdicts, so a verdict added to the report fails the type check here until it
// is decided how a comparison reads it.
const verdicts: Record<ConformanceReport['verdict'], PreviousRun['verdict']> = {
  conforms: 'conforms',
  'does-not-conform': 'does-not-conform',
  incomplete: 'incomplete',
}

/**
 * Reads the text of a previous run's `conformance.json`, refusing what this kit did not write: another
 * report format, a missing field, a finding without a well-formed id. A problem names the file and what
 * to do; it never quotes the file.
 * @example parsePreviousReport(readFileSync('previous/conformance.json', 'utf8'), 'previous/conformance.json')
 */
export function parsePreviousReport(
  text: string,
  path: string,
): { ok: true; previous: PreviousRun } | { ok: false; problem: string } {
  const advice =
    'Give --previous the conformance.json an earlier run of this kit wrote, or leave --previous out.'
  const fail = (problem: string) => ({ ok: false as const, problem: `${path}: ${problem} ${advice}` })
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    // JSON.parse's message quotes the text: say where instead.
    return fail('is not JSON.')
  }
  if (!isObject(parsed)) return fail('is not a report: its top level is not an object.')
  if (parsed.format !== undefined && parsed.format !== reportFormat)
    return {
      ok: false,
      problem: `${path}: was written by another version of this kit (report format ${typeof parsed.format === 'number' && Number.isSafeInteger(parsed.format) ? parsed.format : 'unknown'}; this one reads format ${reportFormat}). Run once without --previous and compare later runs with that run's conformance.json.`,
    }
  const { target, verdict, startedAt, findings } = parsed
  if (!isObject(target) || typeof target.baseUrl !== 'string' || typeof target.readOnly !== 'boolean')
    return fail('is not a report: it has no "target" with "baseUrl" and "readOnly".')
  if (typeof verdict !== 'string' || !Object.hasOwn(verdicts, verdict))
    return fail(`is not a report: "verdict" is not one of ${Object.keys(verdicts).join(', ')}.`)
  if (typeof startedAt !== 'string' || Number.isNaN(Date.parse(startedAt)))
    return fail('is not a report: "startedAt" is not a date.')
  if (!Array.isArray(findings)) return fail('is not a report: it has no "findings" list.')
  if (findings.length > maxPreviousFindings)
    return fail(`lists ${findings.length} findings, more than any run reports (${maxPreviousFindings}).`)
  const excludedRules = parsed.excludedRules ?? []
  if (!Array.isArray(excludedRules) || !excludedRules.every((rule) => isRule(rule)))
    return fail('is not a report: "excludedRules" is not a list of rules.')
  const accepted = acceptedIds(parsed.baseline)
  if (accepted === undefined) return fail('is not a report: "baseline" has no "known" list of ids.')

  const kept: ComparedFinding[] = []
  const seen = new Set<string>()
  for (const [index, raw] of findings.entries()) {
    const finding = comparedFinding(raw, accepted)
    if (finding === undefined)
      return fail(
        `finding ${index + 1} is not one this kit writes (an "id" such as body-schema-1a2b3c4d, a "rule", "where" and "operations").`,
      )
    // A file edited by hand may list an id twice: it is one finding.
    if (seen.has(finding.id)) continue
    seen.add(finding.id)
    kept.push(finding)
  }
  const contractVersion = parsed.contractVersion
  const reasonKind = isObject(parsed.reason) && isRule(parsed.reason.kind) ? parsed.reason.kind : undefined
  return {
    ok: true,
    previous: {
      path,
      startedAt: clip(startedAt, 40),
      baseUrl: clip(target.baseUrl, 300),
      verdict: verdicts[verdict as ConformanceReport['verdict']],
      readOnly: target.readOnly,
      ...(typeof contractVersion === 'string' ? { contractVersion: clip(contractVersion, 40) } : {}),
      checks: judgedChecks(parsed),
      excludedRules: excludedRules as string[],
      ...(reasonKind === undefined ? {} : { reasonKind }),
      findings: kept,
    },
  }
}

function comparedFinding(raw: unknown, accepted: ReadonlySet<string>): ComparedFinding | undefined {
  if (!isObject(raw)) return undefined
  const { id, rule, where, operations } = raw
  if (typeof id !== 'string' || !idPattern.test(id) || !isRule(rule) || typeof where !== 'string')
    return undefined
  if (!Array.isArray(operations) || !operations.every((operation) => typeof operation === 'string'))
    return undefined
  return {
    id,
    rule,
    where: clip(where, 1000),
    operations: (operations as string[]).slice(0, 20).map((operation) => clip(operation, 80)),
    ...(accepted.has(id) ? { accepted: true as const } : {}),
  }
}

/** The ids the previous run's baseline accepted; undefined when its "baseline" is not one. */
function acceptedIds(baseline: unknown): Set<string> | undefined {
  if (baseline === undefined) return new Set()
  if (!isObject(baseline) || !Array.isArray(baseline.known)) return undefined
  const ids = baseline.known.map((entry) => (isObject(entry) ? entry.id : undefined))
  return ids.every((id): id is string => typeof id === 'string') ? new Set(ids) : undefined
}

// The checks list is the report's own; a report that ended before any check has an empty one.
function judgedChecks(report: Record<string, unknown>): number {
  if (Array.isArray(report.checks)) return report.checks.length
  const total = isObject(report.totals) ? report.totals.checks : undefined
  return typeof total === 'number' && Number.isSafeInteger(total) && total >= 0 ? total : 0
}

function isRule(value: unknown): value is string {
  return typeof value === 'string' && rulePattern.test(value)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
