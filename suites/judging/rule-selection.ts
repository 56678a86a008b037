// Which rules a run judges from --checks / --exclude-checks names, and the --list-checks text.
import { listRules, type RuleId } from './rules.ts'

/** Which rules a run judges: `--checks` keeps only these, `--exclude-checks` leaves these out. */
export interface RuleSelection {
  checks?: readonly string[]
  excludeChecks?: readonly string[]
}

/**
 * The rules a run leaves out, from names a person writes: a rule id (`limit`), a group (`headers`), or a
 * kind (`policy`, `contract`). `--checks` keeps what it names; `--exclude-checks` then leaves out what it
 * names. Pure: the caller turns an unknown name into a usage error.
 * @example excludedRules({ excludeChecks: ['policy'] }) // { ok: true, excluded: ['invalid-not-refused', …] }
 */
export function excludedRules(
  selection: RuleSelection,
): { ok: true; excluded: RuleId[] } | { ok: false; problem: string } {
  const all = listRules()
  const names = [...new Set(all.flatMap((rule) => [rule.id, rule.group, rule.kind]))]
  const resolve = (items: readonly string[]) => {
    const unknown = items.filter((item) => !names.includes(item))
    if (unknown.length > 0) return unknown
    return new Set(
      all
        .filter((rule) => items.some((item) => [rule.id, rule.group, rule.kind].includes(item)))
        .map((rule) => rule.id),
    )
  }
  const kept = selection.checks?.length ? resolve(selection.checks) : new Set(all.map((rule) => rule.id))
  const dropped = resolve(selection.excludeChecks ?? [])
  for (const result of [kept, dropped])
    if (Array.isArray(result))
      return {
        ok: false,
        problem: `unknown ${result.length === 1 ? 'check' : 'checks'} ${result.map((name) => `"${name}"`).join(', ')}; a check is a rule, a group or a kind: ${names.join(', ')} (--list-checks lists them).`,
      }
  const keep = kept as Set<RuleId>
  const leave = dropped as Set<RuleId>
  return { ok: true, excluded: all.map((rule) => rule.id).filter((id) => !keep.has(id) || leave.has(id)) }
}

/** The registry as `--list-checks` prints it: one rule a line, with its group and kind. */
export function listChecksText(): string {
  const rules = listRules()
  const width = Math.max(...rules.map((rule) => rule.id.length))
  const groups = [...new Set(rules.map((rule) => rule.group))]
  return [
    'Checks, by rule (select with --checks / --exclude-checks: a rule, a group or a kind):',
    '',
    ...rules.map(
      (rule) =>
        `  ${rule.id.padEnd(width)}  ${rule.group.padEnd(9)} ${rule.kind.padEnd(8)} ${rule.description}`,
    ),
    '',
    `Groups: ${groups.join(', ')}. Kinds: contract (the contract's words), policy (the suite's opinion where it is silent).`,
  ].join('\n')
}
