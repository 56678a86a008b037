import { describe, inject, it } from 'vitest'
import {
  allChecks,
  type Check,
  type CheckMeta,
  type CheckResult,
  coverageCheck,
  coverageTable,
  createRunState,
  desyncFacts,
  finalChecks,
  lastChecks,
  pactChecks,
  pactDeprecatedUse,
  runCheck,
  trafficFacts,
  type Violation,
} from './suite-engine.ts'

// The conformance suite as vitest runs it: one test per check, grouped by operation, the checks of a group
// concurrent. The target comes from the runner (`provide`); each result goes to the reporter as task meta.
const target = inject('conformanceTarget')
const run = createRunState(target)
// The suite's own checks, then one per interaction of the consumers' recordings (--pact FILE).
const checks = [...allChecks, ...pactChecks(target.pacts ?? [])]
// The first finding seen on each operation: coverage gaps on that operation are blocked by it.
const violated = new Map<string, Violation>()

const notChecked = (check: Check): CheckResult => ({
  group: check.group,
  name: check.name,
  outcome: 'not-checked',
  message: 'not checked (read-only): it would create pets',
  violations: [],
  warnings: [],
  advice: [],
  notes: [],
})

// Four stages, each starting once the one before has finished: every check (its groups concurrent, at
// most `maxConcurrency` checks at a time), then the checks that look back over the whole run, then those
// whose requests a broken server may answer by destroying data, then coverage.
function stage(checks: number, after: Promise<void>) {
  let left = checks
  let finished: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    finished = resolve
  })
  if (left === 0) void after.then(finished)
  return {
    after,
    done,
    checkDone() {
      if (--left === 0) finished()
    },
  }
}
type Stage = ReturnType<typeof stage>
const checksStage = stage(checks.length, Promise.resolve())
const finalStage = stage(finalChecks.length, checksStage.done)
const lastStage = stage(lastChecks.length, finalStage.done)
const coverageStage = stage(1, lastStage.done)

/**
 * One check as a test, started once `when` begins, or with `early` once the stage before it begins: such a
 * check prepares meanwhile (creates what it needs) and awaits its own stage itself (`stageBegun`), which
 * takes that preparation off the end of the run.
 */
const test = (check: Check, when: Stage, extra?: () => Omit<CheckMeta, 'result'>, early?: Stage) =>
  it(check.name, async ({ task, skip }) => {
    await (early ?? when).after
    const result = await judge(check, early ? when.after : undefined).finally(async () => {
      // A stage is done only once the one before it is: a check started early can end first (read-only).
      await when.after
      when.checkDone()
    })
    for (const violation of [...result.violations, ...(result.blockedBy ? [result.blockedBy] : [])])
      if (!violated.has(violation.operation)) violated.set(violation.operation, violation)
    task.meta.conformance = { result, throttled: trafficFacts(target.network).throttled, ...extra?.() }
    if (['failed', 'timed-out', 'errored'].includes(result.outcome)) throw new Error(result.message)
    if (result.outcome !== 'passed') skip(result.message)
  })

const groups = new Map<string, Check[]>()
for (const check of checks) groups.set(check.group, [...(groups.get(check.group) ?? []), check])

const judge = (check: Check, stageBegun?: Promise<void>) =>
  target.readOnly && check.writes ? Promise.resolve(notChecked(check)) : runCheck(check, run, stageBegun)

for (const [group, checks] of groups) {
  describe.concurrent(group, () => {
    for (const check of checks) test(check, checksStage)
  })
}

// Once every check above has finished: what the whole run's traffic may have undone.
describe('end of run', () => {
  for (const check of finalChecks) test(check, finalStage)
})

// Then what a broken server could answer by destroying data: nothing after it reads what it may destroy.
// Queued after every check above, they start once a slot is free, create their witness meanwhile, and send
// nothing else before the end-of-run checks have finished.
describe('methods the contract does not declare', () => {
  for (const check of lastChecks) test(check, lastStage, undefined, checksStage)
})

// Last, once every other check has run: coverage of the declared operation × status pairs.
describe('coverage', () => {
  test(coverageCheck(run, violated), coverageStage, () => ({
    run: {
      coverage: coverageTable(run),
      created: run.created.count,
      namePrefix: run.fixtures.runId,
      createdIds: [...run.created.ids].map(String),
      reusedIds: [...run.created.reused],
      ...(target.maxCreatedTotal === undefined ? {} : { maxCreatedTotal: target.maxCreatedTotal }),
      ...(run.created.census
        ? {
            tagged: {
              seen: run.created.census.tagged.length,
              atLeast: run.created.census.bounded,
              ...(run.created.census.unknown ? { unknown: true } : {}),
            },
          }
        : {}),
      traffic: trafficFacts(target.network),
      ...desyncFacts(target.network),
      ...(target.pacts?.length ? { deprecatedUse: pactDeprecatedUse(target.pacts) } : {}),
    },
  }))
})
