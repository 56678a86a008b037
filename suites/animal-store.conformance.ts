import { describe, inject, it } from 'vitest'
import { type Check, createRunState } from './check-context.ts'
import { allChecks } from './checks/index.ts'
import type { CheckMeta } from './conformance-meta.ts'
import { coverageCheck, coverageTable } from './coverage.ts'
import type { Violation } from './findings.ts'
import { type CheckResult, runCheck } from './run-check.ts'

// The conformance suite as vitest runs it: one test per check, grouped by operation, the checks of a group
// concurrent. The target comes from the runner (`provide`); each result goes to the reporter as task meta.
const target = inject('conformanceTarget')
const run = createRunState(target)
// The first finding seen on each operation: coverage gaps on that operation are blocked by it.
const violated = new Map<string, Violation>()

const notChecked = (check: Check): CheckResult => ({
  group: check.group,
  name: check.name,
  outcome: 'not-checked',
  message: 'not checked (read-only): it would create pets',
  violations: [],
  warnings: [],
  notes: [],
})

// Every group runs concurrently with the others (vitest's `sequence.concurrent`, at most `maxConcurrency`
// checks at a time); coverage waits until every other check has finished.
let remaining = allChecks.length
let everyCheckDone: () => void = () => {}
const allDone = new Promise<void>((done) => {
  everyCheckDone = done
})

const test = (check: Check, extra?: () => Omit<CheckMeta, 'result'>) =>
  it(check.name, async ({ task, skip }) => {
    if (extra) await allDone
    const result = await judge(check).finally(() => {
      if (!extra && --remaining === 0) everyCheckDone()
    })
    for (const violation of [...result.violations, ...(result.blockedBy ? [result.blockedBy] : [])])
      if (!violated.has(violation.operation)) violated.set(violation.operation, violation)
    task.meta.conformance = { result, ...extra?.() }
    if (['failed', 'timed-out', 'errored'].includes(result.outcome)) throw new Error(result.message)
    if (result.outcome !== 'passed') skip(result.message)
  })

const groups = new Map<string, Check[]>()
for (const check of allChecks) groups.set(check.group, [...(groups.get(check.group) ?? []), check])

const judge = (check: Check) =>
  target.readOnly && check.writes ? Promise.resolve(notChecked(check)) : runCheck(check, run)

for (const [group, checks] of groups) {
  describe.concurrent(group, () => {
    for (const check of checks) test(check)
  })
}

// Last, once every other check has run: coverage of the declared operation × status pairs.
describe('coverage', () => {
  test(coverageCheck(run, violated), () => ({
    run: { coverage: coverageTable(run), created: run.created.count, namePrefix: run.fixtures.runId },
  }))
})
