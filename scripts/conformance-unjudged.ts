// What the conformance command says when it exits 2: the reason on stderr, and the reports that carry it
// when the run knows where they go (the run's own stages, the watching process, a failure of the command).
import { resolve } from 'node:path'
import type { Output } from '../suites/output/index.ts'
import type { ConformanceReport, ExitReason } from '../suites/reporting/index.ts'
import { type ConformanceOutcome, invokedCommand, unjudgedOutcome } from '../suites/run/index.ts'

/** The options a report of a run that judged nothing needs, as the command read them. */
export interface ReportOptions {
  'base-url'?: string | undefined
  'read-only': boolean
  'via-prism': boolean
  seed?: number | undefined
  'report-dir': string
}

/** Writes the reports of a run that judged nothing, and returns its outcome (exit 2, the reason). */
export function unjudgedCommandRun(
  output: Output,
  values: ReportOptions,
  reason: ExitReason,
  started: { at: Date; seed: number },
  runPeakRssBytes?: number,
): ConformanceOutcome {
  const target: ConformanceReport['target'] = {
    baseUrl: (values['base-url'] ?? '').replace(/\/+$/, ''),
    readOnly: values['read-only'],
    viaPrism: values['via-prism'],
    seed: values.seed ?? started.seed,
    command: invokedCommand(),
  }
  return unjudgedOutcome(
    reason,
    { output, reportDir: resolve(values['report-dir']), target },
    started.at,
    runPeakRssBytes,
  )
}

/**
 * The last lines of a run that exited 2, on stderr: the reason and what to do, where the reports are
 * when this run wrote them, and the usage line only for a mistake in the options (a server that cannot
 * be reached is no usage error).
 */
export function exitLines(outcome: ConformanceOutcome, usageLine: string, reportDir: string): string {
  const reason = outcome.reason
  if (!reason) return outcome.problem ?? ''
  const report = outcome.report
  // A run that judged something printed its own report and where it is; one stopped from outside had started.
  const judged = report !== undefined && (report.checks.length > 0 || report.pending.length > 0)
  const started = judged || reason.kind === 'deadline' || reason.kind === 'stopped'
  return [
    `${started ? 'Incomplete' : 'Cannot run'} (${reason.kind}): ${reason.message}`,
    `What to do: ${reason.advice}`,
    ...(report && !judged
      ? [`Reports: ${resolve(reportDir, 'summary.md')}, conformance.json, junit.xml, conformance.html`]
      : []),
    // Why no report was written, when the run meant to write one.
    ...(outcome.problem?.split('\n').slice(1) ?? []),
    ...(reason.kind === 'options' ? ['', usageLine] : []),
  ].join('\n')
}
