import { describe, expect, it } from 'vitest'
import { reportFacts } from '../proof/report-facts.ts'
import { buildReport, type ConformanceReport } from './conformance-report.ts'
import { petsOnTargetText } from './pets-on-target.ts'
import { toConsoleText, toMarkdown } from './report-formats.ts'
import { toHtml } from './report-html.ts'

const reportWith = (created: Partial<ConformanceReport['created']>) =>
  buildReport(
    [],
    reportFacts({
      target: { baseUrl: 'http://127.0.0.1:1/v1', readOnly: false, viaPrism: false, seed: 1 },
      finishedAt: new Date('2026-01-01T00:00:01Z'),
      created: { count: 5, namePrefix: 'conformance-abc123', ...created },
    }),
  )

describe('what every report says of the kit’s pets on the target', () => {
  it('says how many tagged pets earlier runs left, how it counted them, and which it reused', () => {
    const report = reportWith({ tagged: { seen: 100, atLeast: true }, reused: ['7'] })
    const text = petsOnTargetText(report) ?? ''
    expect(text).toContain(
      'Pets named "conformance-…" by earlier runs, seen before this run created any: at least 100',
    )
    expect(text).toContain('first page of 100 of GET /pets and of each status filter')
    expect(text).toContain('Reading checks reused pet 7 instead of creating one.')
    for (const rendered of [toConsoleText(report), toMarkdown(report), toHtml(report)])
      expect(rendered).toContain('Reading checks reused pet 7 instead of creating one.')
  })

  it('gives an exact count when no page was full, and says nothing it did not count', () => {
    expect(petsOnTargetText(reportWith({ tagged: { seen: 0, atLeast: false } }))).toMatch(/created any: 0 \(/)
    expect(petsOnTargetText(reportWith({}))).toBeUndefined()
    expect(petsOnTargetText(reportWith({ tagged: { seen: 0, atLeast: false, unknown: true } }))).toContain(
      'not counted',
    )
  })

  it('says whether --max-created-total stopped the creates', () => {
    expect(petsOnTargetText(reportWith({ tagged: { seen: 40, atLeast: false }, maxTotal: 30 }))).toContain(
      'More than --max-created-total 30: nothing was created',
    )
    expect(petsOnTargetText(reportWith({ tagged: { seen: 30, atLeast: false }, maxTotal: 30 }))).toContain(
      '--max-created-total 30: under it.',
    )
  })
})
