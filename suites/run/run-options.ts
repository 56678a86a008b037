// What a run takes and what it gives back: the programmatic API's types, and the shape of its defaults.
import type { NetworkOptions } from '../network/index.ts'
import type { Secrets } from '../output/index.ts'
import type { ConformanceReport, ExitReason } from '../reporting/index.ts'

export interface ConformanceOptions {
  /** The server's base URL, `/v1` included. */
  baseUrl: string
  apiKey: string
  /** Production mode: never creates pets. */
  readOnly?: boolean
  /** Where junit.xml, conformance.json, summary.md and conformance.html go (default `reports/`). */
  reportDir?: string
  /** Route all traffic through Prism's validating proxy; its violations, checked against the response, count too. */
  viaPrism?: boolean
  /** The whole run's deadline in seconds (default 300): past it the run stops and exits 2. */
  timeoutSeconds?: number
  /** One request's deadline in seconds, headers and body included (default 10). */
  requestTimeoutSeconds?: number
  /** Response bodies are read up to this many bytes (default 4 MiB). */
  maxResponseBytes?: number
  /** How the names of created pets start (default `conformance`). */
  namePrefix?: string
  /** Seeds every generated sequence (default: random, printed in every report); the same seed replays them. */
  seed?: number
  /** Random sequences the stateful model runs (default 5). */
  maxExamples?: number
  /** `strict` (default): policy findings fail the run; `off`: they are warnings. */
  policy?: 'strict' | 'off'
  /** Judge only these rules, groups or kinds (`--checks`); see judging/rule-selection.ts. */
  checks?: string[]
  /** Leave these rules, groups or kinds out (`--exclude-checks`): reported as excluded, never as passed. */
  excludeChecks?: string[]
  /** The progress line on stderr: default on a TTY outside CI. */
  progress?: boolean
  /** A baseline file of accepted findings (see reporting/baseline-file.ts): they are reported as known and do not fail the run. */
  baseline?: string
  /** Writes the run's findings as a baseline here, each with an empty reason for a person to fill in. */
  writeBaseline?: string
  /** A previous run's conformance.json: every report adds what changed since (reporting/run-comparison.ts). */
  previous?: string
  /** The day sunsets are judged against, YYYY-MM-DD (default today, UTC): `--date`. */
  date?: string
  /** Pact files of consumers' recorded interactions (`--pact`): each interaction is replayed as a check. */
  pact?: string[]
  /** `fail` (default): consumer drift fails the run; `warn`: it is a warning (`--pact-drift`). */
  pactDrift?: 'fail' | 'warn'
  /** Rate limit, proxy, TLS material and extra headers (see network/network-options.ts). */
  network?: NetworkOptions
  /** At most this many pets created (`--max-writes`): checks that would go past it are skipped. */
  maxWrites?: number
  /**
   * `--max-created-total`: when the target already holds more pets named by earlier runs than this (as far
   * as the first pages of the lists show them), nothing is created and the run exits 2 asking for a
   * clean-up. Default: no limit.
   */
  maxCreatedTotal?: number
  /** Where progress and the summary go (default: stdout). Lines arrive redacted and made inert for a terminal. */
  print?: (line: string) => void
  /**
   * The process that started this run and watches it (its pid: the command's outer process, which keeps
   * `--timeout` from outside): the report's peak memory counts it too.
   */
  watchedBy?: number
  /**
   * Runs the checks in the calling thread, without vitest (which then need not be installed): the same
   * checks, order and report, without vitest's start and a thread of its own (about 0.8 s of CPU a run).
   * For a caller that runs many, as the suite's own proofs do; a run is then only as bounded in memory
   * as the thread it shares. Default: in vitest's thread, as the command runs it.
   */
  inThisThread?: boolean
  /**
   * Secrets besides the API key and the base URL's credentials, which the run adds itself: proxy
   * credentials, headers marked secret. Every output is redacted of all of them.
   */
  secrets?: Secrets
}

export interface ConformanceOutcome {
  /** 0: conforms; 1: the server breaks the contract; 2: the run could not judge it (not the server's fault). */
  exitCode: 0 | 1 | 2
  /** Why the run could not happen or finish (exit code 2), as one line: `reasonText(reason)`. */
  problem?: string
  /** The same, as data: the kind (docs/conformance.md lists them), what happened, what to do. */
  reason?: ExitReason
  /** The report, written to the report folder: for exit 2 too, whenever the folder was known to work. */
  report?: ConformanceReport
}

/** What a run uses for what it is not told (their values: suites/run-defaults.ts). */
export interface RunDefaults {
  timeoutSeconds: number
  requestTimeoutSeconds: number
  maxResponseBytes: number
  maxExamples: number
}
