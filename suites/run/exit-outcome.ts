// The last stage: the exit code a release pipeline trusts, and why when it is 2.
import type { ConformanceReport, ExitReason } from '../reporting/index.ts'
import { reasonText } from '../reporting/index.ts'
import type { ConformanceOutcome } from './run-options.ts'
import { tooManyCreatedReason } from './too-many-created.ts'

/**
 * The judged report with the reason it exits 2, if it does: staging throttled past the budget, the deadline
 * passed with checks pending, or the suite itself failed. Decided before the reports are rendered, so that
 * every format carries it; such a run is incomplete whatever it found.
 */
export function withExitReason(report: ConformanceReport, timeoutMs: number): ConformanceReport {
  const reason =
    throttlingReason(report) ?? tooManyCreatedReason(report) ?? incompleteReason(report, timeoutMs)
  return reason ? { ...report, verdict: 'incomplete', reason } : report
}

/** 0 when the server conforms, 1 when it does not, 2 when the report carries a reason it could not judge it. */
export function exitOutcome(report: ConformanceReport): ConformanceOutcome {
  if (report.reason) return { exitCode: 2, problem: reasonText(report.reason), reason: report.reason, report }
  return { exitCode: report.verdict === 'conforms' ? 0 : 1, report }
}

function incompleteReason(report: ConformanceReport, timeoutMs: number): ExitReason | undefined {
  if (report.verdict !== 'incomplete') return undefined
  return report.pending.length > 0
    ? {
        kind: 'deadline',
        message: `The run's deadline (${timeoutMs / 1000} s) passed with ${report.pending.length} ${report.pending.length === 1 ? 'check' : 'checks'} pending.`,
        advice: 'Raise --timeout, or check why the server is slow.',
      }
    : {
        kind: 'suite-error',
        message: 'The suite itself failed (see the errored checks); this is not the server’s fault.',
        advice: 'Please report it, with the report attached.',
      }
}

/**
 * A run that stayed throttled beyond the budget (network/request-pacing.ts) could not judge the server:
 * exit 2, with a rate to try that the server did accept.
 */
function throttlingReason(report: ConformanceReport): ExitReason | undefined {
  const traffic = report.traffic
  if (!traffic || traffic.refused === 0) return undefined
  const sent = traffic.requests + traffic.retried
  const suggested = Math.max(1, Math.floor((traffic.pacedAt ?? traffic.effectiveRate) * 0.8))
  return {
    kind: 'throttled',
    message: `staging is throttling: ${traffic.throttled} of ${sent} requests refused.`,
    advice: `Try --rate-limit ${suggested}/s (or raise the limit for the suite's client).`,
  }
}
