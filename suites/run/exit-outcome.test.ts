import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../engine/index.ts'
import { reportFacts } from '../proof/report-facts.ts'
import { buildReport, toMarkdown } from '../reporting/index.ts'
import { exitOutcome, withExitReason } from './exit-outcome.ts'

// A run that started and could not judge the server says why in the report it writes, before rendering.
const facts = reportFacts()
const check = (name: string, outcome: CheckResult['outcome']) =>
  ({ group: 'listPets', name, outcome, violations: [], warnings: [], advice: [], notes: [] }) as CheckResult

describe('the reason a started run exits 2 for', () => {
  it('is throttled when staging kept refusing, with a rate it did accept, whatever the checks found', () => {
    const traffic = {
      requests: 247,
      throttled: 44,
      retried: 44,
      secondsWaited: 30,
      effectiveRate: 10,
      refused: 3,
    }
    const report = withExitReason(buildReport([check('pages', 'passed')], { ...facts, traffic }), 300_000)
    expect(report.verdict).toBe('incomplete')
    expect(report.reason).toEqual({
      kind: 'throttled',
      message: 'staging is throttling: 44 of 291 requests refused.',
      advice: "Try --rate-limit 8/s (or raise the limit for the suite's client).",
    })
    expect(exitOutcome(report)).toMatchObject({ exitCode: 2, reason: report.reason })
    expect(toMarkdown(report)).toContain('**Exit 2 (`throttled`):** `staging is throttling: 44 of 291')
  })

  it('is deadline when checks were pending, and suite-error when the suite broke', () => {
    const pending = withExitReason(buildReport([check('slow', 'timed-out')], facts), 3_000)
    expect(pending.reason).toMatchObject({
      kind: 'deadline',
      message: "The run's deadline (3 s) passed with 1 check pending.",
    })
    const broken = withExitReason(buildReport([check('bug', 'errored')], facts), 3_000)
    expect(broken.reason?.kind).toBe('suite-error')
  })

  it('is absent when the run judged the server: exit 0 or 1, no reason', () => {
    const judged = withExitReason(buildReport([check('fine', 'passed')], facts), 3_000)
    expect(judged.reason).toBeUndefined()
    expect(exitOutcome(judged)).toEqual({ exitCode: 0, report: judged })
  })
})
