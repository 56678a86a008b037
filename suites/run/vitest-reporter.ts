// The vitest reporter of a run: progress as groups finish, then the results handed over as report data.
import type { Reporter, TestCase, TestModule } from 'vitest/node'
import type { CheckResult } from '../engine/index.ts'
import type { ConformanceReport } from '../reporting/index.ts'
import type { CheckMeta } from './conformance-meta.ts'
import { blockLine, checkLabel, erroredResult, judgedReport, type ReportFacts } from './judged-report.ts'
import type { ProgressWriter } from './progress-line.ts'

/**
 * The vitest side of a run: a progress line per group as it finishes, then the results handed over as data
 * (`onReport`). It neither formats nor writes reports: those are plain functions of the report.
 */
export class ConformanceReporter implements Reporter {
  report: ConformanceReport | undefined
  /** Checks started and not yet finished: what was pending if the run's deadline strikes. */
  readonly running = new Set<string>()
  private readonly startedAt = new Date()
  private readonly facts: ReportFacts
  private readonly print: (line: string) => void
  private readonly progress: ProgressWriter | undefined
  private readonly counts = { done: 0, total: 0, requests: 0, throttled: 0 }
  /** Each block's checks, in the order declared, until the last of them has ended. */
  private readonly blocks = new Map<string, { cases: TestCase[]; left: number }>()

  constructor(facts: ReportFacts, print: (line: string) => void, progress?: ProgressWriter) {
    this.facts = facts
    this.print = print
    this.progress = progress
  }

  onTestModuleCollected(module: TestModule) {
    for (const testCase of module.children.allTests()) {
      this.counts.total++
      const name = blockOf(testCase)
      const block = this.blocks.get(name) ?? { cases: [], left: 0 }
      block.cases.push(testCase)
      block.left++
      this.blocks.set(name, block)
    }
  }

  onTestCaseReady(testCase: TestCase) {
    this.running.add(label(testCase))
  }

  onTestCaseResult(testCase: TestCase) {
    this.running.delete(label(testCase))
    if (this.progress) {
      this.counts.done++
      const meta = testCase.meta().conformance as CheckMeta | undefined
      this.counts.requests += meta?.result.requests ?? 0
      this.counts.throttled = Math.max(this.counts.throttled, meta?.throttled ?? 0)
      this.progress.update({ ...this.counts, elapsedMs: Date.now() - this.startedAt.getTime() })
    }
    // A line for a block as its last check ends.
    const block = this.blocks.get(blockOf(testCase))
    if (!block || --block.left > 0) return
    this.progress?.end()
    this.print(blockLine(blockOf(testCase), block.cases.map(toResult)))
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>) {
    this.progress?.end()
    const cases = modules.flatMap((module) => [...module.children.allTests()])
    const results = cases.map(toResult)
    for (const module of modules)
      for (const error of module.errors()) results.push(suiteError(error.stack ?? error.message))
    for (const error of errors) results.push(suiteError(String((error as Error)?.stack ?? error)))
    const run = cases
      .map((testCase) => (testCase.meta().conformance as CheckMeta | undefined)?.run)
      .find(Boolean)
    this.report = judgedReport(results, run, this.facts, this.startedAt)
  }
}

/** The block a check is reported under: given with its test (animal-store.conformance.ts). */
const blockOf = (testCase: TestCase) => testCase.meta().block ?? ''

const label = (testCase: TestCase) => checkLabel(blockOf(testCase), testCase.name)

const suiteError = (message: string) => erroredResult('suite', 'the suite itself ran', message)

// A check's result travels as task meta; a test that never reached its body (a vitest timeout) has none.
function toResult(testCase: TestCase): CheckResult {
  const meta = testCase.meta().conformance as CheckMeta | undefined
  if (meta) return meta.result
  const result = testCase.result()
  return {
    group: blockOf(testCase),
    name: testCase.name,
    outcome: result.state === 'pending' ? 'timed-out' : 'errored',
    message:
      result.state === 'failed' ? result.errors.map((error) => error.message).join('\n') : 'did not finish',
    violations: [],
    warnings: [],
    advice: [],
    notes: [],
  }
}
