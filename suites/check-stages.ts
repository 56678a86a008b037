// The suite's checks in the stages a run takes them in, with no vitest in it: the suite file runs each as a
// test in vitest's thread (animal-store.conformance.ts), runInThisThread in the caller's (run-in-thread.ts).
import {
  allChecks,
  coverageCheck,
  coverageTable,
  finalChecks,
  lastChecks,
  pactChecks,
  pactDeprecatedUse,
} from './checks/index.ts'
import {
  type Check,
  type CheckResult,
  type ConformanceTarget,
  createRunState,
  runCheck,
  type StageGate,
  stageGate,
} from './engine/index.ts'
import type { Violation } from './judging/index.ts'
import { desyncFacts, trafficFacts } from './network/index.ts'
import type { CheckMeta } from './run/index.ts'

/** One check of a run, ready to start: it waits for its stage itself. */
export interface StagedCheck {
  name: string
  /** Judges the check once its stage begins, and hands over what the report needs of it. */
  run: () => Promise<CheckMeta>
}

/** The checks reported under one heading (a group, or a later stage), in the order they start. */
export interface CheckBlock {
  name: string
  checks: StagedCheck[]
}

// Four stages: every check (its groups concurrent, at most `checksAtOnce` checks at a time), then the checks
// that look back over the whole run's writes, then those whose requests a broken server may answer by
// destroying data, then coverage. Each starts once the one before has finished, but for the look back,
// which starts once every check has finished writing (the stateful model's final sweep only reads).

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

/**
 * A run's checks against the target, in blocks in the order they start; whoever runs them starts them in
 * that order, at most `checksAtOnce` at a time (a check waiting for its stage holds its place). Every
 * check must be started: a stage begins once each check of the one before has ended.
 */
export function stageChecks(target: ConformanceTarget): CheckBlock[] {
  const run = createRunState(target)
  // The suite's own checks, then one per interaction of the consumers' recordings (--pact FILE).
  const checks = [...allChecks, ...pactChecks(target.pacts ?? [])]
  // The first finding seen on each operation: coverage gaps on that operation are blocked by it.
  const violated = new Map<string, Violation>()
  const checksStage = stageGate(checks.length, Promise.resolve())
  const finalStage = stageGate(finalChecks.length, checksStage.writesDone)
  const lastStage = stageGate(
    lastChecks.length,
    Promise.all([checksStage.done, finalStage.done]).then(() => {}),
  )
  const coverageStage = stageGate(1, lastStage.done)

  const judge = (check: Check, stageBegun?: Promise<void>, wroteLast?: () => void) =>
    target.readOnly && check.writes
      ? Promise.resolve(notChecked(check))
      : runCheck(check, run, stageBegun, wroteLast)

  /**
   * One check, started once `when` begins, or with `early` once the stage before it begins: such a check
   * prepares meanwhile (creates what it needs) and awaits its own stage itself (`stageBegun`), which takes
   * that preparation off the end of the run.
   */
  const staged = (
    check: Check,
    when: StageGate,
    extra?: () => Omit<CheckMeta, 'result'>,
    early?: StageGate,
  ): StagedCheck => ({
    name: check.name,
    run: async () => {
      await (early ?? when).after
      const wroteLast = when.writer()
      const result = await judge(check, early ? when.after : undefined, wroteLast).finally(async () => {
        wroteLast()
        // A stage is done only once the one before it is: a check started early can end first (read-only).
        await when.after
        when.checkDone()
      })
      for (const violation of [...result.violations, ...(result.blockedBy ? [result.blockedBy] : [])])
        if (!violated.has(violation.operation)) violated.set(violation.operation, violation)
      return { result, throttled: trafficFacts(target.network).throttled, ...extra?.() }
    },
  })

  const groups = new Map<string, Check[]>()
  for (const check of checks) groups.set(check.group, [...(groups.get(check.group) ?? []), check])
  return [
    ...[...groups].map(([name, checks]) => ({
      name,
      checks: checks.map((check) => staged(check, checksStage)),
    })),
    // Once every check above has finished writing: what the whole run's traffic may have undone.
    { name: 'end of run', checks: finalChecks.map((check) => staged(check, finalStage)) },
    // Then what a broken server could answer by destroying data: nothing after it reads what it may destroy.
    // Queued after every check above, they start once a slot is free, create their witness meanwhile, and
    // send nothing else before the end-of-run checks have finished.
    {
      name: 'methods the contract does not declare',
      checks: lastChecks.map((check) => staged(check, lastStage, undefined, checksStage)),
    },
    // Last, once every other check has run: coverage of the declared operation × status pairs.
    {
      name: 'coverage',
      checks: [
        staged(coverageCheck(run, violated), coverageStage, () => ({
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
        })),
      ],
    },
  ]
}
