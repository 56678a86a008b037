import { describe, inject, it } from 'vitest'
import { type Check, createRunState } from './check-context.ts'
import { checksFor } from './checks/index.ts'
import type { CheckMeta } from './conformance-meta.ts'
import { coverageTable } from './coverage.ts'
import { describeExchange } from './exchange.ts'
import { coverageCheck, runCheck } from './run-checks.ts'

// The conformance suite as vitest runs it: one test per check (one JUnit test case each), grouped by
// operation, the checks of a group concurrent. The target comes from the runner (`provide`).
const target = inject('conformanceTarget')
const run = createRunState(target)

const groups = new Map<string, Check[]>()
for (const check of checksFor(target.readOnly))
  groups.set(check.group, [...(groups.get(check.group) ?? []), check])

const test = (check: Check, extra?: () => Partial<CheckMeta>) =>
  it(check.name, async ({ task, skip }) => {
    const result = await runCheck(check, run)
    const exchanges = result.exchanges.map((exchange) => describeExchange(exchange))
    task.meta.conformance = { group: check.group, warnings: result.warnings, exchanges, ...extra?.() }
    if (result.outcome === 'skipped') skip(result.message)
    if (result.outcome === 'failed') throw new Error([result.message, ...exchanges].join('\n\n'))
  })

for (const [group, checks] of groups) {
  describe.concurrent(group, () => {
    for (const check of checks) test(check)
  })
}

// Last, once every other check has run: coverage of the declared operation × status pairs.
describe('coverage', () => {
  test(coverageCheck(run), () => ({ coverage: coverageTable(run.seen, target.readOnly) }))
})
