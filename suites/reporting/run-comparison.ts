// What changed since an earlier run: this run's findings against a previous report's, by finding id. Pure.
/**
 * A finding as two runs are compared on it: its stable id (the one every report prints and a baseline
 * names), and enough to recognise it in a pull-request comment.
 */
export interface ComparedFinding {
  id: string
  rule: string
  where: string
  operations: string[]
  /** Accepted by a baseline: this run's for new and still-open findings, the previous run's for fixed ones. */
  accepted?: true
}

/** An earlier run's report, as far as the comparison reads it: checked, bounded (previous-report-file.ts). */
export interface PreviousRun {
  /** Where it was read from, as the person named it. */
  path: string
  startedAt: string
  baseUrl: string
  verdict: 'conforms' | 'does-not-conform' | 'incomplete'
  readOnly: boolean
  /** Absent in reports written before it was recorded. */
  contractVersion?: string
  /** Checks the run judged: 0 when it ended before any (exit 2 at the pre-flight). */
  checks: number
  /** Rules it left out with --checks / --exclude-checks: it said nothing about them. */
  excludedRules: string[]
  /** The kind of its exit-2 reason, when its report names one. */
  reasonKind?: string
  findings: ComparedFinding[]
}

/** No report at the path given: a pipeline's first run, or an artefact that expired. */
export interface MissingPreviousRun {
  path: string
  missing: true
}

/** Why a finding seen on one side only is not called new or fixed: the other side did not judge it. */
export type UnknownWhy =
  | 'previous-incomplete'
  | 'previous-excluded'
  | 'current-incomplete'
  | 'current-excluded'

/** Why the differences may not be changes to one server: the runs differ in what they checked. */
export interface Caveat {
  about: 'server' | 'contract' | 'mode'
  previous: string
  current: string
}

export interface RunComparison {
  /** The previous report, as the person named it. */
  path: string
  /**
   * - `compared`: the lists below hold every finding of both runs;
   * - `first-run`: no file at `path`, nothing to compare with;
   * - `nothing-judged`: the previous run judged no check (exit 2 before any), so it knew of no finding.
   */
  state: 'compared' | 'first-run' | 'nothing-judged'
  previous?: {
    startedAt: string
    baseUrl: string
    verdict: PreviousRun['verdict']
    contractVersion?: string
    reasonKind?: string
  }
  /** In this run, not in the previous one, which judged its rule. */
  new: ComparedFinding[]
  /** In the previous run, not in this complete one, which judged its rule. */
  fixed: ComparedFinding[]
  stillOpen: ComparedFinding[]
  /** Seen by one run only, where the other did not judge it: neither new nor fixed. */
  unknown: (ComparedFinding & { why: UnknownWhy })[]
  caveats: Caveat[]
}

/** What the comparison reads of this run's report (a structural slice, so this file needs no report type). */
export interface CurrentRun {
  verdict: PreviousRun['verdict']
  contractVersion: string
  target: { baseUrl: string; readOnly: boolean }
  findings: readonly Pick<ComparedFinding, 'id' | 'rule' | 'where' | 'operations'>[]
  excludedRules?: readonly string[]
  baseline?: { known: readonly { id: string }[] }
}

/**
 * Sorts both runs' findings by id into new, fixed and still open. A finding one run did not judge (its
 * rule left out, or the run incomplete) is neither new nor fixed: it is listed as unknown, with why. The
 * order of either run's findings changes nothing but the order of the lists, which follow this run's
 * order (the order to fix them in) and then the previous run's.
 * @example compareRuns(report, previous).fixed.map((finding) => finding.id) // ['limit-0a1b2c3d']
 */
export function compareRuns(current: CurrentRun, previous: PreviousRun | MissingPreviousRun): RunComparison {
  const lists = { new: [], fixed: [], stillOpen: [], unknown: [], caveats: [] }
  if ('missing' in previous) return { path: previous.path, state: 'first-run', ...lists }
  const comparison: RunComparison = {
    path: previous.path,
    state: previous.checks === 0 ? 'nothing-judged' : 'compared',
    previous: {
      startedAt: previous.startedAt,
      baseUrl: previous.baseUrl,
      verdict: previous.verdict,
      ...(previous.contractVersion === undefined ? {} : { contractVersion: previous.contractVersion }),
      ...(previous.reasonKind === undefined ? {} : { reasonKind: previous.reasonKind }),
    },
    ...lists,
  }
  if (comparison.state === 'nothing-judged') return comparison
  comparison.caveats = caveats(current, previous)

  const accepted = new Set(current.baseline?.known.map((entry) => entry.id) ?? [])
  const before = new Map(previous.findings.map((finding) => [finding.id, finding]))
  const now = new Set(current.findings.map((finding) => finding.id))
  for (const finding of current.findings) {
    const entry: ComparedFinding = {
      id: finding.id,
      rule: finding.rule,
      where: finding.where,
      operations: [...finding.operations],
      ...(accepted.has(finding.id) ? { accepted: true as const } : {}),
    }
    if (before.has(finding.id)) comparison.stillOpen.push(entry)
    else if (previous.excludedRules.includes(finding.rule))
      comparison.unknown.push({ ...entry, why: 'previous-excluded' })
    else if (previous.verdict === 'incomplete')
      comparison.unknown.push({ ...entry, why: 'previous-incomplete' })
    else comparison.new.push(entry)
  }
  for (const finding of before.values()) {
    if (now.has(finding.id)) continue
    if (current.excludedRules?.includes(finding.rule))
      comparison.unknown.push({ ...finding, why: 'current-excluded' })
    else if (current.verdict === 'incomplete')
      comparison.unknown.push({ ...finding, why: 'current-incomplete' })
    else comparison.fixed.push(finding)
  }
  return comparison
}

function caveats(current: CurrentRun, previous: PreviousRun): Caveat[] {
  const found: Caveat[] = []
  const server = {
    previous: withoutCredentials(previous.baseUrl),
    current: withoutCredentials(current.target.baseUrl),
  }
  if (server.previous.replace(/\/+$/, '') !== server.current.replace(/\/+$/, ''))
    found.push({ about: 'server', ...server })
  if (previous.contractVersion !== undefined && previous.contractVersion !== current.contractVersion)
    found.push({ about: 'contract', previous: previous.contractVersion, current: current.contractVersion })
  if (previous.readOnly !== current.target.readOnly) {
    const mode = (readOnly: boolean) => (readOnly ? 'read-only' : 'read-write')
    found.push({ about: 'mode', previous: mode(previous.readOnly), current: mode(current.target.readOnly) })
  }
  return found
}

// A base URL may carry credentials (https://user:secret@host): the comparison never repeats them.
function withoutCredentials(baseUrl: string): string {
  try {
    const url = new URL(baseUrl)
    if (url.username === '' && url.password === '') return baseUrl
    url.username = ''
    url.password = ''
    return url.toString()
  } catch {
    return baseUrl
  }
}
