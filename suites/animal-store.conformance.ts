import { describe, inject, it } from 'vitest'
import { stageChecks } from './suite-engine.ts'

// The conformance suite as vitest runs it: one test per check, in the blocks and stages check-stages.ts
// sets, every test concurrent (at most `maxConcurrency` at a time). The target comes from the runner
// (`provide`); each check's result goes to the reporter as task meta.
for (const block of stageChecks(inject('conformanceTarget')))
  describe.concurrent(block.name, () => {
    for (const check of block.checks)
      it(check.name, async ({ task, skip }) => {
        const meta = await check.run()
        task.meta.conformance = meta
        const { outcome, message } = meta.result
        if (['failed', 'timed-out', 'errored'].includes(outcome)) throw new Error(message)
        if (outcome !== 'passed') skip(message)
      })
  })
