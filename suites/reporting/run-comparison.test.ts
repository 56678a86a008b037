import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../engine/run-check.ts'
import { stableFindingId, type Violation } from '../judging/findings.ts'
import { reportFacts } from '../proof/report-facts.ts'
import { withBaseline } from './baseline-verdict.ts'
import { buildReport, type ConformanceReport } from './conformance-report.ts'
import { maxPreviousFindings, parsePreviousReport } from './previous-report-file.ts'
import { listedPerGroup, previousRunMarkdown, previousRunMarkers } from './previous-run-formats.ts'
import { toConsoleText, toMarkdown } from './report-formats.ts'
import { toHtml } from './report-html.ts'
import { type ComparedFinding, compareRuns, type PreviousRun } from './run-comparison.ts'
import { withPreviousRun } from './with-previous-run.ts'

const facts = reportFacts({
  startedAt: new Date('2026-01-02T00:00:00Z'),
  finishedAt: new Date('2026-01-02T00:00:02Z'),
  created: { count: 0, namePrefix: 'conformance-abc' },
})
const violation = (rule: Violation['rule'], where: string, operation: string): Violation => ({
  rule,
  where,
  operation,
  message: `${rule} at ${where}`,
  exchange: '> GET /v1/pets\n< 200',
})
const failed = (name: string, ...violations: Violation[]) =>
  ({ group: 'g', name, outcome: 'failed', violations, warnings: [], advice: [], notes: [] }) as CheckResult
const passed = (name: string) =>
  ({
    group: 'g',
    name,
    outcome: 'passed',
    violations: [],
    warnings: [],
    advice: [],
    notes: [],
  }) as CheckResult

const limit = violation('limit', 'query limit', 'listPets')
const schema = violation('body-schema', 'body /name must be string', 'getPet')
const status = violation('wrong-status', 'createPet without a name', 'createPet')

/** A report as a run writes it, read back as the next run reads it. */
function previousFrom(report: ConformanceReport, path = 'previous/conformance.json'): PreviousRun {
  const parsed = parsePreviousReport(JSON.stringify(report), path)
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.previous
}
const ids = (findings: readonly Pick<ComparedFinding, 'id'>[]) => findings.map((finding) => finding.id)

describe('what changed since the previous run, by finding id', () => {
  const before = buildReport([failed('a', limit), failed('b', schema), passed('c')], facts)
  const after = buildReport([failed('a', schema), failed('d', status), passed('c')], facts)
  const idOf = (one: Violation) => stableFindingId({ ...one, operations: [one.operation] })

  it('sorts findings into new, fixed and still open', () => {
    const comparison = compareRuns(after, previousFrom(before))
    expect(comparison.state).toBe('compared')
    expect(ids(comparison.new)).toEqual([idOf(status)])
    expect(ids(comparison.fixed)).toEqual([idOf(limit)])
    expect(ids(comparison.stillOpen)).toEqual([idOf(schema)])
    expect(comparison.unknown).toEqual([])
    expect(comparison.caveats).toEqual([])
    expect(toMarkdown(withPreviousRun(after, previousFrom(before)))).not.toContain('Neither run reported')
  })

  it('says so when neither run reported a finding', () => {
    const clean = buildReport([passed('c')], facts)
    expect(toMarkdown(withPreviousRun(clean, previousFrom(clean)))).toContain(
      '(it conformed), read from `previous/conformance.json`. Neither run reported a finding. This run checked the same base URL.',
    )
  })

  it('is the same whatever order either run listed its findings in', () => {
    const reversed = { ...before, findings: [...before.findings].reverse() }
    const shuffled = { ...after, findings: [...after.findings].reverse() }
    const plain = compareRuns(after, previousFrom(before))
    const reordered = compareRuns(shuffled, previousFrom(reversed))
    for (const list of ['new', 'fixed', 'stillOpen'] as const)
      expect(ids(reordered[list]).sort()).toEqual(ids(plain[list]).sort())
  })

  it('matches a finding whose operations a run saw in another order: the id the baseline uses', () => {
    const one = buildReport(
      [
        failed(
          'a',
          violation('auth', 'no credentials', 'listPets'),
          violation('auth', 'no credentials', 'getPet'),
        ),
      ],
      facts,
    )
    const other = buildReport(
      [
        failed(
          'a',
          violation('auth', 'no credentials', 'getPet'),
          violation('auth', 'no credentials', 'listPets'),
        ),
      ],
      facts,
    )
    expect(one.findings[0]?.operations).not.toEqual(other.findings[0]?.operations)
    const comparison = compareRuns(other, previousFrom(one))
    expect(ids(comparison.stillOpen)).toEqual(ids(one.findings))
    expect(comparison.new).toEqual([])
  })

  it('keeps the baseline’s mark: this run’s on what is open, the previous run’s on what was fixed', () => {
    const accept = (report: ConformanceReport, finding: Violation) =>
      withBaseline(report, { path: 'b.json', entries: [{ id: idOf(finding), reason: 'PET-12' }] }, new Date())
    const comparison = compareRuns(accept(after, schema), previousFrom(accept(before, limit)))
    expect(comparison.stillOpen).toEqual([expect.objectContaining({ id: idOf(schema), accepted: true })])
    expect(comparison.fixed).toEqual([expect.objectContaining({ id: idOf(limit), accepted: true })])
    expect(comparison.new[0]?.accepted).toBeUndefined()
    expect(toMarkdown(withPreviousRun(accept(after, schema), previousFrom(before)))).toMatch(
      /\*\*Still open \(1\)\*\*\n\n- `body-schema-[0-9a-f]{8}` body-schema `body \/name must be string` on `getPet` \(accepted in a baseline\)/,
    )
  })

  it('calls nothing fixed that this run did not judge: its rule left out, or the run incomplete', () => {
    const excluded = { ...after, excludedRules: ['limit'] }
    expect(compareRuns(excluded, previousFrom(before)).unknown).toEqual([
      expect.objectContaining({ id: idOf(limit), why: 'current-excluded' }),
    ])
    const incomplete = { ...after, verdict: 'incomplete' as const }
    const comparison = compareRuns(incomplete, previousFrom(before))
    expect(comparison.fixed).toEqual([])
    expect(comparison.unknown).toEqual([
      expect.objectContaining({ id: idOf(limit), why: 'current-incomplete' }),
    ])
  })

  it('calls nothing new that the previous run did not judge: its rule left out, or that run incomplete', () => {
    const excluded = previousFrom({ ...before, excludedRules: ['wrong-status'] })
    expect(compareRuns(after, excluded).unknown).toEqual([
      expect.objectContaining({ id: idOf(status), why: 'previous-excluded' }),
    ])
    const incomplete = previousFrom({ ...before, verdict: 'incomplete' })
    const comparison = compareRuns(after, incomplete)
    expect(comparison.new).toEqual([])
    expect(ids(comparison.fixed)).toEqual([idOf(limit)])
    expect(comparison.unknown).toEqual([
      expect.objectContaining({ id: idOf(status), why: 'previous-incomplete' }),
    ])
  })

  it('compares nothing with a run that judged no check, and notes a first run without failing', () => {
    const stopped = buildReport([], { ...facts, pending: ['the pre-flight: connection refused'] })
    const nothing = compareRuns(after, previousFrom({ ...stopped, reason: { kind: 'unreachable' } } as never))
    expect(nothing).toMatchObject({ state: 'nothing-judged', new: [], fixed: [], stillOpen: [] })
    expect(nothing.previous?.reasonKind).toBe('unreachable')
    const first = compareRuns(after, { path: 'previous/conformance.json', missing: true })
    expect(first).toMatchObject({ state: 'first-run', new: [], fixed: [], stillOpen: [] })
    expect(
      toMarkdown(withPreviousRun(after, { path: 'previous/conformance.json', missing: true })),
    ).toContain(
      "No previous report at `previous/conformance.json`: nothing to compare with (a pipeline's first run",
    )
  })

  it('says when the runs checked another server, contract version or mode, never showing credentials', () => {
    const elsewhere = previousFrom({
      ...before,
      contractVersion: '0.9.0',
      target: { ...before.target, baseUrl: 'https://ci:s3cret-pass@staging.example/v1', readOnly: true },
    })
    const comparison = compareRuns(after, elsewhere)
    expect(comparison.caveats.map((caveat) => caveat.about)).toEqual(['server', 'contract', 'mode'])
    expect(JSON.stringify(comparison.caveats)).not.toContain('s3cret-pass')
    expect(toConsoleText(withPreviousRun(after, elsewhere))).toContain(
      '! The previous run judged against contract 0.9.0; this one 1.0.0: a finding may be new or fixed because the contract changed.',
    )
  })
})

describe('the previous report is untrusted input', () => {
  const report = buildReport([failed('a', limit)], facts)
  const json = JSON.parse(JSON.stringify(report)) as Record<string, unknown>
  const problem = (value: unknown) => {
    const parsed = parsePreviousReport(typeof value === 'string' ? value : JSON.stringify(value), 'prev.json')
    return parsed.ok ? 'accepted' : parsed.problem
  }

  it('refuses what this kit did not write, naming the file and what to do, never quoting it', () => {
    expect(problem('{"target": secret-looking-text')).toBe(
      'prev.json: is not JSON. Give --previous the conformance.json an earlier run of this kit wrote, or leave --previous out.',
    )
    expect(problem([])).toContain('its top level is not an object')
    expect(problem({ ...json, verdict: 'great' })).toContain('"verdict" is not one of')
    expect(
      problem({ ...json, findings: [{ id: '<script>', rule: 'limit', where: '', operations: [] }] }),
    ).toContain('finding 1 is not one this kit writes')
    expect(problem({ ...json, findings: Array(maxPreviousFindings + 1).fill({}) })).toContain(
      'more than any run',
    )
    expect(problem({ ...json, baseline: { known: 'all' } })).toContain('"baseline" has no "known" list')
  })

  it('refuses a report of another format, saying how to get one it reads', () => {
    expect(problem({ ...json, format: 2 })).toBe(
      "prev.json: was written by another version of this kit (report format 2; this one reads format 1). Run once without --previous and compare later runs with that run's conformance.json.",
    )
    // Reports written before the format was recorded read as format 1.
    const { format: _, ...unversioned } = json
    expect(problem(unversioned)).toBe('accepted')
  })

  it('bounds every text it keeps', () => {
    const long = {
      ...json,
      target: { ...(json.target as object), baseUrl: `http://x/${'v'.repeat(100_000)}` },
      findings: [
        {
          ...(json.findings as object[])[0],
          where: 'x'.repeat(100_000),
          operations: Array(1000).fill('o'.repeat(1000)),
        },
      ],
    }
    const parsed = parsePreviousReport(JSON.stringify(long), 'prev.json')
    if (!parsed.ok) throw new Error(parsed.problem)
    const [finding] = parsed.previous.findings
    expect(finding?.where).toMatch(/^x{1000}… \(100000 chars\)$/)
    expect(finding?.operations).toHaveLength(20)
    expect(Math.max(...(finding?.operations ?? []).map((operation) => operation.length))).toBeLessThan(100)
    expect(parsed.previous.baseUrl.length).toBeLessThan(320)
  })

  it('reaches no format as markup or a command: Markdown, HTML and the console defuse what it holds', () => {
    const hostile = `\`</code><script>alert(1)</script>|\n::set-output name=x::y\n## CONFORMS\n${previousRunMarkers.end}`
    const tampered = {
      ...json,
      target: { ...(json.target as object), baseUrl: `http://x/v1${hostile}` },
      findings: [
        { ...(json.findings as object[])[0], id: 'limit-00000000', where: hostile, operations: [hostile] },
      ],
    }
    const parsed = parsePreviousReport(JSON.stringify(tampered), 'prev.json')
    if (!parsed.ok) throw new Error(parsed.problem)
    const current = withPreviousRun(buildReport([passed('c')], facts), parsed.previous)
    const markdown = previousRunMarkdown(current).join('\n')
    expect(markdown).toContain('**Fixed (1)**')
    // The section's end, where a workflow stops cutting out the pull-request comment, is its own line only.
    expect(markdown.split('\n').filter((line) => line === previousRunMarkers.end)).toHaveLength(1)
    expect(markdown.split('\n').at(-2)).toBe(previousRunMarkers.end)
    // Each text is one code span on one line: no tag, no heading, no workflow command at a line start.
    expect(markdown).not.toMatch(/^(::|#+ CONFORMS)/m)
    expect(markdown.replace(/(`+)[^`\n]*?(?:`[^`\n]*?)*?\1/g, '')).not.toMatch(/<script|<\/code>/)
    const html = toHtml(current)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toContain('<script>')
    const console = toConsoleText(current)
    expect(console).toContain('\\n::set-output name=x::y\\n## CONFORMS')
    expect(console).not.toMatch(/^::/m)
  })

  it('shows at most a bounded list in Markdown, counting the rest', () => {
    const many = buildReport(
      Array.from({ length: listedPerGroup + 5 }, (_, index) =>
        failed(`c${index}`, violation('limit', `query limit ${index}`, 'listPets')),
      ),
      facts,
    )
    const markdown = toMarkdown(withPreviousRun(report, previousFrom(many)))
    expect(markdown).toContain(`**Fixed (${listedPerGroup + 5})**`)
    expect(markdown).toContain('- and 5 more (every one is in conformance.json)')
  })
})
