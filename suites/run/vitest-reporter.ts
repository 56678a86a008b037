// The vitest reporter of a run: progress as groups finish, then the results handed over as report data.
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node'
import type { CheckResult } from '../engine/index.ts'
import { buildReport, type ConformanceReport } from '../reporting/index.ts'
import type { CheckMeta } from './conformance-meta.ts'
import type { ProgressWriter } from './progress-line.ts'

/** What the report says of the run whatever vitest found; the peak memory measured when it is built. */
export type ReporterFacts = Pick<Parameters<typeof buildReport>[1], 'target' | 'limitations'> & {
  peakRss?: () => number
}

/**
 * The vitest side of a run: a progress line per group as it finishes, then the results handed over as data
 * (`onReport`). It neither formats nor writes reports: those are plain functions of the report.
 */
export class ConformanceReporter implements Reporter {
  report: ConformanceReport | undefined
  /** Checks started and not yet finished: what was pending if the run's deadline strikes. */
  readonly running = new Set<string>()
  private readonly startedAt = new Date()
  private readonly facts: ReporterFacts
  private readonly print: (line: string) => void
  private readonly progress: ProgressWriter | undefined
  private readonly counts = { done: 0, total: 0, requests: 0, throttled: 0 }

  constructor(facts: ReporterFacts, print: (line: string) => void, progress?: ProgressWriter) {
    this.facts = facts
    this.print = print
    this.progress = progress
  }

  onTestModuleCollected(module: TestModule) {
    this.counts.total += [...module.children.allTests()].length
  }

  onTestCaseReady(testCase: TestCase) {
    this.running.add(label(testCase))
  }

  onTestCaseResult(testCase: TestCase) {
    this.running.delete(label(testCase))
    if (!this.progress) return
    this.counts.done++
    const meta = testCase.meta().conformance as CheckMeta | undefined
    this.counts.requests += meta?.result.requests ?? 0
    this.counts.throttled = Math.max(this.counts.throttled, meta?.throttled ?? 0)
    this.progress.update({ ...this.counts, elapsedMs: Date.now() - this.startedAt.getTime() })
  }

  onTestSuiteResult(suite: TestSuite) {
    this.progress?.end()
    const results = [...suite.children.allTests()].map(toResult)
    const count = (outcome: CheckResult['outcome']) =>
      results.filter((result) => result.outcome === outcome).length
    const failed = count('failed')
    const counts = [
      `${count('passed')} passed`,
      ...(failed ? [`${failed} failed`] : []),
      ...(count('blocked') ? [`${count('blocked')} blocked`] : []),
      ...(count('skipped') ? [`${count('skipped')} skipped`] : []),
      ...(count('not-checked') ? [`${count('not-checked')} not checked (read-only)`] : []),
    ]
    this.print(`  ${failed ? '✗' : '✓'} ${suite.name.padEnd(16)} ${counts.join(', ')}`)
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
    const { peakRss, ...facts } = this.facts
    this.report = buildReport(results, {
      ...facts,
      ...(peakRss ? { peakRssBytes: peakRss() } : {}),
      startedAt: this.startedAt,
      finishedAt: new Date(),
      coverage: run?.coverage ?? [],
      created: {
        count: run?.created ?? 0,
        namePrefix: run?.namePrefix ?? '',
        ...(run?.createdIds ? { ids: run.createdIds } : {}),
        ...(run?.reusedIds?.length ? { reused: run.reusedIds } : {}),
        ...(run?.tagged ? { tagged: run.tagged } : {}),
        ...(run?.maxCreatedTotal === undefined ? {} : { maxTotal: run.maxCreatedTotal }),
      },
      ...(run?.traffic ? { traffic: run.traffic } : {}),
      ...(run?.desync ? { desync: run.desync } : {}),
      ...(run?.deprecatedUse?.length ? { deprecatedUse: run.deprecatedUse } : {}),
    })
  }
}

function label(testCase: TestCase): string {
  return `${testCase.parent.type === 'suite' ? testCase.parent.name : ''} › ${testCase.name}`
}

function suiteError(message: string): CheckResult {
  return {
    group: 'suite',
    name: 'the suite itself ran',
    outcome: 'errored',
    message,
    violations: [],
    warnings: [],
    advice: [],
    notes: [],
  }
}

// A check's result travels as task meta; a test that never reached its body (a vitest timeout) has none.
function toResult(testCase: TestCase): CheckResult {
  const meta = testCase.meta().conformance as CheckMeta | undefined
  if (meta) return meta.result
  const result = testCase.result()
  return {
    group: testCase.parent.type === 'suite' ? testCase.parent.name : '',
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
