// The last stage: the exit code a release pipeline trusts, and why when it is 2.
import type { ConformanceReport } from '../reporting/index.ts'
import type { ConformanceOutcome } from './run-options.ts'
import { tooManyCreatedReason } from './too-many-created.ts'

/**
 * 0 when the server conforms, 1 when it does not, 2 when the run could not judge it: staging throttled
 * past the budget, the deadline passed with checks pending, or the suite itself failed.
 */
export function exitOutcome(report: ConformanceReport, timeoutMs: number): ConformanceOutcome {
  const throttling = throttlingProblem(report)
  if (throttling) return { exitCode: 2, problem: throttling, report }
  const crowded = tooManyCreatedReason(report)
  if (crowded) return { exitCode: 2, problem: `${crowded.message} ${crowded.advice}`, report }
  if (report.verdict === 'incomplete')
    return {
      exitCode: 2,
      problem:
        report.pending.length > 0
          ? `The run's deadline (${timeoutMs / 1000} s) passed with ${report.pending.length} checks pending; raise --timeout or check why the server is slow.`
          : 'The suite itself failed (see above); this is not the server’s fault. Please report it.',
      report,
    }
  return { exitCode: report.verdict === 'conforms' ? 0 : 1, report }
}

/**
 * A run that stayed throttled beyond the budget (network/request-pacing.ts) could not judge the server:
 * exit 2, with a rate to try that the server did accept.
 */
function throttlingProblem(report: ConformanceReport): string | undefined {
  const traffic = report.traffic
  if (!traffic || traffic.refused === 0) return undefined
  const sent = traffic.requests + traffic.retried
  const suggested = Math.max(1, Math.floor((traffic.pacedAt ?? traffic.effectiveRate) * 0.8))
  return `staging is throttling: ${traffic.throttled} of ${sent} requests refused; try --rate-limit ${suggested}/s (or raise the limit for the suite's client).`
}
