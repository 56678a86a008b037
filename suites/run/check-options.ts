// The first stage of a run: everything that can be wrong before any request, said in words, and the target.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readPactFiles } from '../../mocks/pact-file.ts'
import type { ConformanceTarget } from '../engine/index.ts'
import { excludedRules } from '../judging/index.ts'
import { createOutput, type Output, Secrets } from '../output/index.ts'
import {
  type Baseline,
  type ConformanceReport,
  type ExitReason,
  type MissingPreviousRun,
  type PreviousRun,
  parseBaseline,
} from '../reporting/index.ts'
import { invokedCommand } from './invoked-command.ts'
import { ensureWritableDirectory } from './preflight.ts'
import { readPreviousReport } from './read-previous-report.ts'
import type { ConformanceOptions, RunDefaults } from './run-options.ts'

/** What a run that can start works with: where it writes, what it redacts, whom it checks. */
export interface RunPlan {
  secrets: Secrets
  output: Output
  print: (line: string) => void
  target: ConformanceTarget
  /** Rules left out by `--checks` / `--exclude-checks`. */
  excluded: string[]
  baseline: Baseline | undefined
  /** The --previous report to compare with, or a note that there is none yet. */
  previous: PreviousRun | MissingPreviousRun | undefined
  reportDir: string
  timeoutMs: number
}

/** Where a run that stops before any request writes its reports, once the report folder is known to work. */
export interface UnjudgedReports {
  output: Output
  reportDir: string
  target: ConformanceReport['target']
}

/**
 * Checks the options before any request and builds the run's target, `defaults` standing for what they
 * leave out; a problem is a reason (the run exits 2 with it), already redacted, and where its reports go
 * unless the report folder is the problem.
 */
export function checkOptions(
  options: ConformanceOptions,
  defaults: RunDefaults,
): { plan: RunPlan } | { reason: ExitReason; reports?: UnjudgedReports } {
  const secrets = (options.secrets ?? new Secrets()).addApiKey(options.apiKey).addBaseUrl(options.baseUrl)
  const output = options.print
    ? createOutput(secrets, {
        stdout: (text) => options.print?.(text.replace(/\n$/, '')),
        stderr: (text) => options.print?.(text.replace(/\n$/, '')),
      })
    : createOutput(secrets)
  const reportDir = resolve(options.reportDir ?? 'reports')
  const unwritable = ensureWritableDirectory(reportDir)
  if (unwritable) return { reason: redactReason(secrets, unwritable) }
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31)
  const reports: UnjudgedReports = {
    output,
    reportDir,
    target: {
      baseUrl,
      readOnly: options.readOnly ?? false,
      viaPrism: options.viaPrism ?? false,
      seed,
      command: invokedCommand(),
    },
  }
  const problem = (kind: ExitReason['kind'], message: string, advice: string) => ({
    reason: redactReason(secrets, { kind, message, advice }),
    reports,
  })
  if (baseUrl === '')
    return problem(
      'options',
      'No base URL.',
      'Pass --base-url (with its version prefix, e.g. https://host/v1) or set CONFORMANCE_BASE_URL.',
    )
  if (!/^https?:\/\/[^/]/.test(baseUrl))
    return problem(
      'options',
      `The base URL must be an http(s) URL including /v1; got "${options.baseUrl}".`,
      'Pass one such as http://127.0.0.1:4010/v1.',
    )
  if (!options.apiKey)
    return problem('options', 'No API key.', 'Set CONFORMANCE_API_KEY (or pass --api-key).')
  if (secrets.tooShort.length > 0)
    output.err(
      `Warning: a secret (${secrets.tooShort.join(', ')}) is shorter than 4 characters: it cannot be redacted from the output without destroying it, so it is written as it is.`,
    )
  const selection = excludedRules({
    ...(options.checks ? { checks: options.checks } : {}),
    ...(options.excludeChecks ? { excludeChecks: options.excludeChecks } : {}),
  })
  if (!selection.ok)
    return problem(
      'options',
      `--checks / --exclude-checks: ${selection.problem}`,
      'Name rules, groups or kinds that --list-checks prints.',
    )
  const baseline = options.baseline === undefined ? undefined : readBaselineFile(options.baseline)
  if (baseline && 'kind' in baseline) return { reason: redactReason(secrets, baseline), reports }
  const previous = options.previous === undefined ? undefined : readPreviousReport(options.previous)
  const pacts = readPactFiles(options.pact ?? [])
  if ('problem' in pacts)
    return problem(
      'options',
      pacts.problem,
      'Give Pact files the mock recorded (docs/pact.md), or leave --pact out.',
    )

  const timeoutMs = (options.timeoutSeconds ?? defaults.timeoutSeconds) * 1000
  const target: ConformanceTarget = {
    baseUrl,
    apiKey: options.apiKey,
    readOnly: options.readOnly ?? false,
    requestTimeoutMs: (options.requestTimeoutSeconds ?? defaults.requestTimeoutSeconds) * 1000,
    maxResponseBytes: options.maxResponseBytes ?? defaults.maxResponseBytes,
    runDeadline: Date.now() + timeoutMs,
    namePrefix: options.namePrefix ?? 'conformance',
    seed,
    maxExamples: options.maxExamples ?? defaults.maxExamples,
    policy: options.policy ?? 'strict',
    excludedRules: selection.excluded,
    command: invokedCommand(),
    // A copy of its own: the network client is the run's, named by this object (bounded-request.ts).
    network: { ...options.network },
    ...(options.maxWrites === undefined ? {} : { maxWrites: options.maxWrites }),
    ...(options.maxCreatedTotal === undefined ? {} : { maxCreatedTotal: options.maxCreatedTotal }),
    ...(pacts.pacts.length > 0 ? { pacts: pacts.pacts, pactDrift: options.pactDrift ?? 'fail' } : {}),
    ...(options.date === undefined ? {} : { date: options.date }),
  }
  return {
    plan: {
      secrets,
      output,
      print: (line) => output.out(line),
      target,
      excluded: selection.excluded,
      baseline,
      previous,
      reportDir,
      timeoutMs,
    },
  }
}

/** The baseline file, or the reason it cannot be used (the run exits 2 before any request). */
function readBaselineFile(path: string): Baseline | ExitReason {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return {
      kind: 'baseline',
      message: `Cannot read the baseline ${path} (${(error as NodeJS.ErrnoException).code}).`,
      advice: `Write one with --write-baseline ${path}, then give each entry a reason.`,
    }
  }
  const parsed = parseBaseline(text, path)
  return parsed.ok
    ? parsed.baseline
    : {
        kind: 'baseline',
        message: `The baseline cannot be used: ${parsed.problem}`,
        advice: `Fix the entry in ${path} and run again.`,
      }
}

function redactReason(secrets: Secrets, reason: ExitReason): ExitReason {
  return { ...reason, message: secrets.redact(reason.message), advice: secrets.redact(reason.advice) }
}
