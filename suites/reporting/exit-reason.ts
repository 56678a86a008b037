// Why a run exited 2 (it could not judge the server): a kind from a closed list, what happened, what to do.
import { markdownCode } from '../output/index.ts'

/**
 * Every reason a run can exit 2 for, each with the one line docs/conformance.md prints for it (a test
 * keeps the two the same). The kinds are stable: pipelines branch on them.
 */
export const exitReasonKinds = {
  options:
    'the options cannot be used: a missing or malformed base URL or key, an unknown check name, a bad option value',
  baseline:
    'the --baseline file cannot be read or used (an entry without a reason, an unknown key, a bad date)',
  'report-dir': 'the report directory cannot be written (then no report is written either)',
  'missing-dependency': 'something the run needs is not installed (vitest, beside the kit)',
  unreachable:
    'no connection to the server: refused, a host name that does not resolve, a connection timeout',
  tls: 'the TLS handshake failed: a certificate from an internal CA without --ca, an expired or wrong certificate',
  'key-refused': 'the server answered the pre-flight GET {base}/pets with 401 or 403: the key is wrong',
  'no-api': 'no Animal Store API at the base URL: a 404 or an HTML page (the version prefix is missing)',
  'gateway-error':
    'the pre-flight got a 5xx HTML page: a gateway or the framework failed before the API answered',
  throttled: 'staging kept refusing requests (429, 503) beyond the retry budget, before or during the run',
  'too-many-created':
    'earlier runs left more tagged pets on the target than --max-created-total allows: this run created none',
  deadline:
    'the run’s deadline (--timeout) passed with checks pending, or the run was stopped from outside past it',
  stopped: 'the run’s process ended without a report: a signal from outside, or out of memory',
  'suite-error': 'the suite itself failed: not the server’s fault, please report it',
} as const

type ExitReasonKind = keyof typeof exitReasonKinds

/** Why the run exited 2: `kind` for a pipeline to branch on, `message` and `advice` for a person. */
export interface ExitReason {
  kind: ExitReasonKind
  /** What happened. May quote what the server sent: every format passes it through the output boundary. */
  message: string
  /** What to do about it. */
  advice: string
}

/** The reason as one line of plain text: `Exit 2 (unreachable): Cannot reach … What to do: …`. */
export function reasonText(reason: ExitReason): string {
  return `Exit 2 (${reason.kind}): ${reason.message} What to do: ${reason.advice}`
}

/** The reason as the one Markdown line summary.md carries (a pipeline quotes it: see docs/pipelines.md). */
export function reasonMarkdown(reason: ExitReason): string {
  return `**Exit 2 (\`${reason.kind}\`):** ${markdownCode(reason.message)} **What to do:** ${markdownCode(reason.advice)}`
}
