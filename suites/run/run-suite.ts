/// <reference types="vitest/config" />
// The suite's own stage: vitest runs the checks in its thread, under the run's deadline and a backstop.
import type { ConformanceTarget } from '../engine/index.ts'
import type { Output } from '../output/index.ts'
import type { ConformanceReport } from '../reporting/index.ts'
import { type ReportFacts, unfinishedReport } from './judged-report.ts'
import type { LoadingSuite } from './load-suite.ts'
import { prestartedPool } from './prestarted-worker.ts'
import type { ConformanceReporter } from './vitest-reporter.ts'

/**
 * 16 checks at once: measured ~0.05 × of the speed target faster than 8, whose checks waited on each other's
 * round trips. Not more: what the checks in flight hold is the run's memory (bounded-memory.process.test.ts);
 * the pool's other sockets serve the checks that send several at once.
 */
export const checksAtOnce = 16

export interface SuiteRun {
  target: ConformanceTarget
  timeoutMs: number
  reporter: ConformanceReporter
  /** What the report says of the target whatever happens (for a run that did not finish too). */
  facts: ReportFacts
  output: Output
  /** Called once vitest has judged the run, while it stops its thread: a head start on the reports. */
  onJudged: () => void
}

/**
 * Runs the suite file through vitest's Node API against the target and returns the judged report, or,
 * when the run's deadline struck or the suite itself failed, an incomplete one naming what was pending.
 */
export async function runSuite(suite: LoadingSuite, run: SuiteRun): Promise<ConformanceReport> {
  const { target, timeoutMs, reporter, output } = run
  const startedAt = new Date()
  const [{ startVitest }, location] = await suite.loading
  const { prestarted } = suite
  const vitest = await startVitest(
    'test',
    [],
    {
      root: location.root,
      config: false,
      watch: false,
      // vitest's results cache orders test files by their last duration: for one file it is only a read
      // at the start and a write at the end, into the suite's folder (inside the installed package).
      cache: false,
      include: [location.file],
      // Installed as a package, the suite lives under node_modules, which vitest excludes by default.
      exclude: [],
      reporters: [reporter, { onTestRunEnd: () => void setImmediate(run.onJudged) }],
      // One thread in this process: its memory is the run's, and it starts faster than a fork. It was
      // started ahead, while vitest loaded (prestarted-worker.ts).
      pool: prestarted ? prestartedPool(prestarted) : 'threads',
      maxConcurrency: checksAtOnce,
      sequence: { concurrent: true },
      // The run's own deadline governs; vitest's per-test timeout only backs it up.
      testTimeout: timeoutMs + 30_000,
      hookTimeout: timeoutMs + 30_000,
    },
    {
      test: { provide: { conformanceTarget: target } },
      // The suite loads no CSS: given inline, Vite does not search every folder up to / for a PostCSS
      // config (some ninety file checks, awaited one by one, at every start).
      css: { postcss: {} },
    },
    // Whatever vitest prints itself (an error of its own) goes through the same boundary.
    { stdout: output.stream('stdout'), stderr: output.stream('stderr') },
  )
  // A hard stop a little after the deadline, in case a check ignores it: the run ends, naming what was pending.
  const backstop = new Promise<'deadline'>((done) => {
    const timer = setTimeout(() => done('deadline'), target.runDeadline - Date.now() + 5_000)
    timer.unref()
  })
  const finished = await Promise.race([vitest.close().then(() => 'done' as const), backstop])
  if (finished === 'done' && reporter.report) return reporter.report
  return unfinishedReport(run.facts, startedAt, [...reporter.running])
}
