// The one totals line every format prints (console, summary.md, HTML), and the counting rule behind it.
import type { ConformanceReport } from './conformance-report.ts'

/**
 * The run's counts in the words every format uses, so that they agree:
 * `1 finding (1 accepted), 148 checks passed, 68 checks affected by 1 finding, 1 warning`.
 *
 * The counting rule (docs/conformance.md, "Counting"): a finding is one defect, however many checks saw
 * it; a check that saw a finding is *affected* by it, not one more failure (JUnit fails one test case per
 * finding, so its failures are the findings not accepted); a finding a baseline accepts is still counted,
 * and said to be accepted.
 */
export function totalsLine(report: ConformanceReport): string {
  const { totals } = report
  const accepted = report.findings.filter((finding) => finding.accepted).length
  const parts = [
    `${counted(totals.findings, 'finding')}${accepted > 0 ? ` (${accepted} accepted)` : ''}`,
    `${counted(totals.passed, 'check')} passed`,
    ...(totals.failed
      ? [`${counted(totals.failed, 'check')} affected by ${counted(totals.findings, 'finding')}`]
      : []),
    ...(totals.blocked ? [`${totals.blocked} blocked`] : []),
    ...(totals.skipped ? [`${totals.skipped} skipped`] : []),
    ...(totals['not-checked'] ? [`${totals['not-checked']} not checked (read-only)`] : []),
    ...(totals['timed-out'] ? [`${totals['timed-out']} pending at the deadline`] : []),
    ...(totals.errored ? [`${totals.errored} errored`] : []),
    counted(totals.warnings, 'warning'),
  ]
  return parts.join(', ')
}

/** `1 finding`, `2 findings`: the count and its noun, agreeing. */
function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
