import { describe, expect, it } from 'vitest'
import { buildReport } from './conformance-report.ts'
import type { Violation } from './findings.ts'
import { toConsoleText, toJunitXml, toMarkdown } from './report-formats.ts'
import type { CheckResult } from './run-check.ts'

const facts = {
  target: { baseUrl: 'http://127.0.0.1:1/v1', readOnly: false, viaPrism: false, seed: 42 },
  startedAt: new Date('2026-01-01T00:00:00Z'),
  finishedAt: new Date('2026-01-01T00:00:02Z'),
  coverage: [],
  created: { count: 3, namePrefix: 'conformance-abc' },
}
const violation = (rule: Violation['rule'], where: string, operation: string): Violation => ({
  rule,
  where,
  operation,
  message: `${rule} at ${where}`,
  exchange: '> GET /v1/pets\n< 200',
})
const check = (
  name: string,
  outcome: CheckResult['outcome'],
  violations: Violation[] = [],
  blockedBy?: Violation,
) =>
  ({
    group: 'g',
    name,
    outcome,
    violations,
    warnings: [],
    advice: [],
    notes: [],
    ...(blockedBy ? { blockedBy } : {}),
  }) as CheckResult

describe('the report groups what checks saw into distinct findings', () => {
  it('reports one defect once, counting the checks that saw it and those it blocked', () => {
    const dup = violation('duplicate-id', 'createPet ids', 'createPet')
    const report = buildReport(
      [
        check('a', 'failed', [dup]),
        check('b', 'failed', [dup]),
        check('c', 'blocked', [], dup),
        check('d', 'passed'),
      ],
      facts,
    )
    expect(report.findings).toHaveLength(1)
    expect(report.findings[0]).toMatchObject({ rule: 'duplicate-id', checks: ['a', 'b'], blocked: ['c'] })
    expect(report.verdict).toBe('does-not-conform')
    expect(report.totals).toMatchObject({ failed: 2, blocked: 1, passed: 1, findings: 1 })
  })

  it('merges auth holes seen on exactly the same operations into one finding', () => {
    const report = buildReport(
      [
        check('no key', 'failed', [violation('auth', 'no credentials', 'GET /store/orders')]),
        check('wrong key', 'failed', [
          violation('auth', 'a bearer token other than the key', 'GET /store/orders'),
        ]),
        check('list', 'failed', [violation('auth', 'the key in upper case', 'listPets')]),
      ],
      facts,
    )
    expect(report.findings.map((finding) => finding.operations)).toEqual([
      ['GET /store/orders'],
      ['listPets'],
    ])
  })

  it('folds near-miss auth findings into a hole that lets any key in, on the operations they share', () => {
    const everywhere = ['listPets', 'createPet', 'getPet', 'GET /store/orders']
    const report = buildReport(
      [
        ...everywhere.map((operation) =>
          check(`wrong key ${operation}`, 'failed', [
            violation('auth', 'a bearer token other than the key', operation),
          ]),
        ),
        check('upper case', 'failed', [violation('auth', 'the key in upper case', 'listPets')]),
        check('upper case write', 'failed', [violation('auth', 'the key in upper case', 'createPet')]),
      ],
      facts,
    )
    expect(report.findings).toHaveLength(1)
    expect(report.findings[0]?.checks).toHaveLength(6)
  })

  it('takes a finding’s example and its replay command from the same violation', () => {
    const bare = { ...violation('limit', 'query limit', 'listPets'), exchange: undefined }
    const shown = {
      ...violation('limit', 'query limit', 'listPets'),
      replay: "curl -i 'http://h/v1/pets?limit=3'",
    }
    const report = buildReport([check('a', 'failed', [bare]), check('b', 'failed', [shown])], facts)
    expect(report.findings[0]).toMatchObject({ example: shown.exchange, replay: shown.replay })
  })

  it('calls a run incomplete, not failed, when checks were pending at the deadline or the suite broke', () => {
    expect(buildReport([check('slow', 'timed-out')], facts).verdict).toBe('incomplete')
    expect(buildReport([check('bug', 'errored')], facts).verdict).toBe('incomplete')
    expect(buildReport([check('fine', 'passed')], facts).verdict).toBe('conforms')
  })
})

describe('every format is a function of the same report', () => {
  const report = buildReport(
    [
      check('creates <b>"x"</b> & more', 'failed', [
        violation('body-schema', 'body /id must be integer', 'getPet'),
      ]),
    ],
    facts,
  )

  it('writes JUnit XML with every text escaped and control characters replaced', () => {
    const withControl = buildReport([check('nul \u0000 here', 'passed')], facts)
    expect(toJunitXml(withControl)).toContain('name="nul \ufffd here"')
    const xml = toJunitXml(report)
    expect(xml).toContain('name="creates &lt;b&gt;&quot;x&quot;&lt;/b&gt; &amp; more"')
    expect(xml).toContain('failures="1"')
    expect(xml).toContain('seed 42')
  })

  it('writes Markdown with the findings table, what the run created and the seed', () => {
    const markdown = toMarkdown(report)
    // `where` can hold a server's JSON keys: it sits in a code span.
    expect(markdown).toContain('| 1 | body-schema | `body /id must be integer` | getPet | 1 |')
    expect(markdown).toContain('Created 3 pets on the target, named "conformance-abc …"')
    expect(markdown).toContain('seed 42')
  })

  it('prints findings first, then what was created and the verdict line', () => {
    const text = toConsoleText(report)
    expect(text).toMatch(/✗ #1 \[body-schema\] body \/id must be integer — on getPet; seen by 1 check/)
    expect(text.trimEnd().split('\n').at(-1)).toMatch(
      /^DOES NOT CONFORM: 1 finding, 0 checks passed, 1 failed/,
    )
  })
})
