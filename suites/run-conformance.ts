// runConformance, the suite's public entry: a whole run as named stages, from the options to the exit code.
import { join } from 'node:path'
import { writeReportFiles } from './output/index.ts'
import type { ConformanceReport } from './reporting/index.ts'
import { writeBaseline } from './reporting/index.ts'
import type { ConformanceOptions, ConformanceOutcome } from './run/index.ts'
import {
  ConformanceReporter,
  checkOptions,
  exitOutcome,
  type PrismInFront,
  peakRssOfRun,
  preflight,
  progressLine,
  putPrismInFront,
  type RenderedReports,
  reportRenderer,
  runSuite,
  startLoadingSuite,
  unjudgedOutcome,
  withExitReason,
} from './run/index.ts'
import { defaults } from './run-defaults.ts'
import { runInThisThread } from './run-in-thread.ts'

export type { ConformanceOptions, ConformanceOutcome } from './run/index.ts'

/**
 * Runs the conformance suite (suites/animal-store.conformance.ts) through vitest's Node API against a
 * server, after a pre-flight that tells a server's defects from a run that cannot judge it, and writes
 * JUnit, JSON, Markdown and HTML reports. Its stages, in order: check the options, load the suite while
 * the pre-flight asks the server, put Prism in front (with --via-prism), run the suite, render and write
 * the reports (and the baseline), decide the exit code.
 * @example const { exitCode } = await runConformance({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'k' })
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceOutcome> {
  const startedAt = new Date()
  const checked = checkOptions(options, defaults)
  if ('reason' in checked) return unjudgedOutcome(checked.reason, checked.reports, startedAt)
  const { secrets, output, print, target, timeoutMs, reportDir, baseline } = checked.plan

  const suite = options.inThisThread ? undefined : startLoadingSuite()
  const insecure = options.network?.insecure
    ? [
        'Insecure: --insecure accepted any TLS certificate, so this run cannot tell the server from anyone in between. Do not gate a release on it.',
      ]
    : []
  for (const line of insecure) print(`Warning: ${line}`)
  const blocker = await preflight(target.baseUrl, target.apiKey, {
    requestTimeoutMs: target.requestTimeoutMs,
    maxResponseBytes: target.maxResponseBytes,
    runDeadline: target.runDeadline,
    ...(target.network ? { network: target.network } : {}),
  })
  // The server's fault, not the run's: judged, every check blocked by it.
  if (blocker && 'overCap' in blocker) target.overCap = secrets.redact(blocker.overCap)
  else if (blocker) {
    suite?.prestarted?.dispose()
    const reason = {
      ...blocker,
      message: secrets.redact(blocker.message),
      advice: secrets.redact(blocker.advice),
    }
    const { baseUrl, readOnly, seed, command } = target
    return unjudgedOutcome(
      reason,
      {
        output,
        reportDir,
        target: { baseUrl, readOnly, viaPrism: options.viaPrism ?? false, seed, command },
      },
      startedAt,
    )
  }

  let prism: PrismInFront | undefined
  try {
    if (options.viaPrism) prism = await putPrismInFront(target, print)
    const viaPrism = target.prismUrl !== undefined
    print(
      `Checking ${target.baseUrl} against the Animal Store contract${target.readOnly ? ' (read-only)' : ''}${viaPrism ? ', through Prism’s validating proxy' : ''}...`,
    )
    print(`Seed ${target.seed} (replay with --seed ${target.seed}).`)
    const facts = {
      target: {
        baseUrl: target.baseUrl,
        readOnly: target.readOnly,
        viaPrism,
        seed: target.seed,
        command: target.command,
      },
      limitations: [...insecure, ...(prism?.limitations ?? [])],
      // Measured when the report is built, while Prism still runs.
      peakRss: () => peakRssOfRun({ watcher: options.watchedBy, prism: prism?.pid }),
    }
    const reporter = new ConformanceReporter(facts, print, progressLine(options.progress, output.status))
    const renderer = reportRenderer(checked.plan.excluded, baseline, secrets, checked.plan.previous)
    const render = (judged: ConformanceReport) => renderer(withExitReason(judged, timeoutMs))
    // The reports are rendered as soon as the reporter has judged the run, while vitest stops its thread
    // (tens of ms in which this thread would only wait); they are written once vitest has ended.
    let early: { from: ConformanceReport; rendered: RenderedReports } | undefined
    const onJudged = () => {
      const judged = reporter.report
      if (!judged || early?.from === judged) return
      try {
        early = { from: judged, rendered: render(judged) }
      } catch {
        // Rendered again below, where an error surfaces as the run's own.
      }
    }
    // The checks begin in vitest's thread now, while vitest itself still loads (early-checks.ts).
    suite?.begin(target)
    const judged = suite
      ? await runSuite(suite, { target, timeoutMs, reporter, facts, output, onJudged })
      : await runInThisThread(target, { facts, print })
    const { report, texts } = early?.from === judged ? early.rendered : render(judged)

    writeReportFiles(output, reportDir, texts)
    if (options.writeBaseline) {
      output.writeFile(
        'json',
        options.writeBaseline,
        writeBaseline(
          report.findings.map((finding) => finding.id),
          baseline,
        ),
      )
      print(
        `Baseline: wrote ${report.findings.length} findings to ${options.writeBaseline}; give each a reason before using it.`,
      )
    }
    print(texts.console)
    print(`Reports: ${join(reportDir, 'junit.xml')}, conformance.json, summary.md`)
    // Last, so that it is the line a person sees when the run ends: the page shows what the text above cannot.
    print(`HTML report: ${join(reportDir, 'conformance.html')}`)
    return exitOutcome(report)
  } finally {
    suite?.prestarted?.dispose()
    await prism?.stop()
  }
}
