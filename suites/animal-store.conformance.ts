import { inject, it } from 'vitest'
import { suiteChecks } from './suite-engine.ts'

// The conformance suite as vitest runs it: one test per check, in the order check-stages.ts sets, every test
// concurrent (at most `maxConcurrency` at a time). Tests, not a describe block per group: vitest holds a
// slot for each block until its last test ends, so a block with one long check (the stateful model) kept
// the blocks after it from starting, and the last checks began seconds late at a distance. In one flat
// list they start in order as slots free, as in the caller's thread (run-in-thread.ts); each carries its
// block's name for the reporter. The target comes from the runner (`provide`); each check's result goes to
// the reporter as task meta. The command begins the checks in this thread before vitest is ready
// (early-checks.ts), in the same order and width: a test then waits for its check's outcome.
for (const block of suiteChecks(inject('conformanceTarget')))
  for (const check of block.checks)
    it.concurrent(check.name, { meta: { block: block.name } }, async ({ task, skip }) => {
      const meta = await check.run()
      task.meta.conformance = meta
      const { outcome, message } = meta.result
      if (['failed', 'timed-out', 'errored'].includes(outcome)) throw new Error(message)
      if (outcome !== 'passed') skip(message)
    })
