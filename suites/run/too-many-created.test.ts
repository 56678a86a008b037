import { expect, it } from 'vitest'
import { reportFacts } from '../proof/report-facts.ts'
import { buildReport, type ConformanceReport } from '../reporting/index.ts'
import { exitOutcome, withExitReason } from './exit-outcome.ts'
import { tooManyCreatedReason } from './too-many-created.ts'

const reportWith = (created: Partial<ConformanceReport['created']>) =>
  buildReport(
    [],
    reportFacts({
      target: { baseUrl: 'http://127.0.0.1:1/v1', readOnly: false, viaPrism: false, seed: 1 },
      finishedAt: new Date('2026-01-01T00:00:01Z'),
      created: { count: 0, namePrefix: 'ci-run-abc123', ...created },
    }),
  )

it('exits 2 as too-many-created, with how to clean up, once earlier runs left more tagged pets than allowed', () => {
  const report = reportWith({ tagged: { seen: 101, atLeast: true }, maxTotal: 100 })
  expect(tooManyCreatedReason(report)).toMatchObject({
    kind: 'too-many-created',
    message: expect.stringContaining(
      'at least 101 pets named "ci-run-…" by earlier runs, more than --max-created-total 100',
    ),
    advice: expect.stringContaining('every name starting with "ci-run-"'),
  })
  expect(exitOutcome(withExitReason(report, 1000))).toMatchObject({
    exitCode: 2,
    problem: expect.stringContaining('Cleaning up'),
    reason: { kind: 'too-many-created' },
  })
})

it('does not stop a run at the limit, without the option, or when the pets could not be counted', () => {
  for (const created of [
    { tagged: { seen: 100, atLeast: true }, maxTotal: 100 },
    { tagged: { seen: 5000, atLeast: true } },
    { tagged: { seen: 0, atLeast: false, unknown: true }, maxTotal: 0 },
  ]) {
    expect(tooManyCreatedReason(reportWith(created))).toBeUndefined()
    expect(exitOutcome(withExitReason(reportWith(created), 1000)).exitCode).toBe(0)
  }
})
