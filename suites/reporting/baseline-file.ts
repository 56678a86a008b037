// The baseline file of accepted findings (id, reason, expiry): parsed strictly, applied, written. Pure.
/**
 * Accepted findings: a team that ships with one known deviation (a ticket open, the fix next sprint)
 * keeps gating on everything else. A baseline lists findings by their stable id, each with the reason
 * it is accepted and, optionally, the last day it is. Pure: reading the file and the clock is the
 * caller's.
 */
export interface BaselineEntry {
  /** A finding's id, as every report prints it. */
  id: string
  /** Why it is accepted: a ticket, a decision. Never empty: an accepted defect needs an owner. */
  reason: string
  /** The last day (UTC, `YYYY-MM-DD`) it is accepted; from the day after, it fails the run again. */
  expires?: string
}

export interface Baseline {
  /** Where it was read from, as the person named it. */
  path: string
  entries: BaselineEntry[]
}

/** What a baseline did to a run's findings. */
export interface BaselineOutcome {
  path: string
  /** Findings the baseline accepts: reported as known, not failing the run. */
  known: BaselineEntry[]
  /** Findings whose acceptance ran out: they fail the run again, and say so. */
  expired: BaselineEntry[]
  /** Entries no finding matched any more: remove them, so the file shrinks as defects are fixed. */
  stale: BaselineEntry[]
}

const entryKeys = new Set(['id', 'reason', 'expires'])

/**
 * Reads a baseline file's text, refusing what would silently accept too much or nothing: entries
 * without a reason, unknown keys (a misspelt `expires` would accept forever), impossible dates, an id
 * listed twice.
 * @example parseBaseline('{"accepted":[{"id":"limit listPets query limit","reason":"PET-12"}]}', 'b.json')
 */
export function parseBaseline(
  text: string,
  path: string,
): { ok: true; baseline: Baseline } | { ok: false; problem: string } {
  const fail = (problem: string) => ({ ok: false as const, problem: `${path}: ${problem}` })
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return fail(
      `not JSON (${(error as Error).message}). Write it with --write-baseline, then fill in each reason.`,
    )
  }
  const accepted = (parsed as { accepted?: unknown } | null)?.accepted
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    Object.keys(parsed).some((key) => key !== 'accepted') ||
    !Array.isArray(accepted)
  )
    return fail('must be an object with one key, "accepted", a list of {"id", "reason", "expires"?}.')
  const entries: BaselineEntry[] = []
  const seen = new Set<string>()
  for (const [index, raw] of accepted.entries()) {
    const at = `entry ${index + 1}`
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(`${at} is not an object.`)
    const unknown = Object.keys(raw).filter((key) => !entryKeys.has(key))
    if (unknown.length > 0)
      return fail(`${at} has unknown keys ${unknown.join(', ')}; allowed: id, reason, expires.`)
    const { id, reason, expires } = raw as Record<string, unknown>
    if (typeof id !== 'string' || id.trim() === '') return fail(`${at} has no "id".`)
    if (typeof reason !== 'string' || reason.trim() === '')
      return fail(`${at} ("${id}") has no reason: say why it is accepted (a ticket, a decision).`)
    if (expires !== undefined && !isDay(expires))
      return fail(`${at} ("${id}") has "expires" ${JSON.stringify(expires)}; write a date as YYYY-MM-DD.`)
    if (seen.has(id)) return fail(`${at} lists "${id}" a second time.`)
    seen.add(id)
    entries.push({ id, reason, ...(expires === undefined ? {} : { expires: expires as string }) })
  }
  return { ok: true, baseline: { path, entries } }
}

/** Sorts a run's finding ids against a baseline, as of `today`. */
export function applyBaseline(
  findingIds: readonly string[],
  baseline: Baseline,
  today: Date,
): BaselineOutcome {
  const found = new Set(findingIds)
  const day = today.toISOString().slice(0, 10)
  const outcome: BaselineOutcome = { path: baseline.path, known: [], expired: [], stale: [] }
  for (const entry of baseline.entries) {
    if (!found.has(entry.id)) outcome.stale.push(entry)
    // ISO dates compare as text; the expiry day itself is still accepted.
    else if (entry.expires !== undefined && entry.expires < day) outcome.expired.push(entry)
    else outcome.known.push(entry)
  }
  return outcome
}

/**
 * A baseline accepting every finding of a run, for a person to review: reasons and expiry dates of
 * entries already in `previous` are kept, new entries get an empty reason, which the reader refuses
 * until someone writes one.
 */
export function writeBaseline(findingIds: readonly string[], previous?: Baseline): string {
  const kept = new Map((previous?.entries ?? []).map((entry) => [entry.id, entry]))
  const accepted = [...new Set(findingIds)].map((id) => kept.get(id) ?? { id, reason: '' })
  return `${JSON.stringify({ accepted }, null, 2)}\n`
}

function isDay(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}
