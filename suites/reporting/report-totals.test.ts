import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../engine/run-check.ts'
import type { Violation } from '../judging/findings.ts'
import { reportFacts } from '../proof/report-facts.ts'
import { withBaseline } from './baseline-verdict.ts'
import { buildReport, type ConformanceReport } from './conformance-report.ts'
import { toConsoleText, toJunitXml, toMarkdown } from './report-formats.ts'
import { toHtml } from './report-html.ts'
import { totalsLine } from './report-totals.ts'

// One set of counts: the console, summary.md, the HTML and JUnit say the same of the same report.
const facts = reportFacts()
const missingHeader: Violation = {
  rule: 'header',
  where: 'listPets X-Total-Count',
  operation: 'listPets',
  message: 'X-Total-Count is missing',
}
const check = (name: string, outcome: CheckResult['outcome'], violations: Violation[] = []) =>
  ({ group: 'listPets', name, outcome, violations, warnings: [], advice: [], notes: [] }) as CheckResult

/** Three checks that saw one missing header, two that saw nothing, one that needed a pet it could not make. */
const judged = buildReport(
  [
    check('pages', 'failed', [missingHeader]),
    check('filters', 'failed', [missingHeader]),
    check('sorts', 'failed', [missingHeader]),
    check('reads', 'passed'),
    check('counts', 'passed'),
    check('creates', 'skipped'),
  ],
  facts,
)
const findingId = judged.findings[0]?.id ?? ''
const accepted = withBaseline(
  judged,
  { path: 'baseline.json', entries: [{ id: findingId, reason: 'PET-12' }] },
  new Date('2026-01-01T00:00:00Z'),
)

/** What JUnit says: its totals, and the test cases that carry each finding or name it. */
function junitCounts(report: ConformanceReport) {
  const xml = toJunitXml(report)
  const attribute = (name: string) => Number(new RegExp(`<testsuites [^>]*${name}="(\\d+)"`).exec(xml)?.[1])
  return {
    failures: attribute('failures'),
    skipped: attribute('skipped'),
    tests: attribute('tests'),
    affectedNamed: xml.match(/<system-out>affected by /g)?.length ?? 0,
    acceptedSkipped: xml.match(/<skipped message="known finding /g)?.length ?? 0,
  }
}

describe('one set of counts', () => {
  it('counts checks that saw a finding as affected by it, not as failed, in the same words everywhere', () => {
    const line = totalsLine(judged)
    expect(line).toBe('1 finding, 2 checks passed, 3 checks affected by 1 finding, 1 skipped, 0 warnings')
    expect(toConsoleText(judged).split('\n').at(-1)).toBe(`DOES NOT CONFORM: ${line}`)
    expect(toMarkdown(judged)).toContain(`seed 42: ${line}.`)
    expect(toHtml(judged)).toContain(`<dt>Counts</dt><dd>${line}</dd>`)
    for (const text of [toConsoleText(judged), toMarkdown(judged), toHtml(judged)])
      expect(text).not.toMatch(/\d+ failed/)
  })

  it('fails one JUnit test case per finding, and names it on every other check it affected', () => {
    const junit = junitCounts(judged)
    expect(junit.failures).toBe(judged.totals.findings)
    // The check that carries the failure, plus those that name it: the checks the totals call affected.
    expect(junit.failures + junit.affectedNamed).toBe(judged.totals.failed)
    expect(junit.skipped).toBe(judged.totals.skipped)
    expect(junit.tests).toBe(judged.totals.checks)
  })

  it('marks a finding the baseline accepts as accepted in every format, and fails nothing for it', () => {
    expect(accepted.verdict).toBe('conforms')
    expect(accepted.findings[0]?.accepted).toEqual({ baseline: 'baseline.json', reason: 'PET-12' })
    const line = totalsLine(accepted)
    expect(line).toBe(
      '1 finding (1 accepted), 2 checks passed, 3 checks affected by 1 finding, 1 skipped, 0 warnings',
    )
    const console = toConsoleText(accepted)
    expect(console).toContain(`○ #1 ${findingId}`)
    expect(console).toContain('accepted (baseline.json): PET-12')
    expect(console.split('\n').at(-1)).toBe(`CONFORMS (1 finding accepted by the baseline): ${line}`)
    const markdown = toMarkdown(accepted)
    expect(markdown).toContain('| accepted `(baseline.json): PET-12` |')
    expect(markdown).toContain(`#1 ${findingId} (accepted): `)
    expect(toHtml(accepted)).toContain('<span class="kind accepted">accepted</span>')
    const junit = junitCounts(accepted)
    expect(junit.failures).toBe(0)
    expect(junit.acceptedSkipped).toBe(1)
    expect(junit.skipped).toBe(accepted.totals.skipped + 1)
  })
})
