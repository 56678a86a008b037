// The first stage of a run: everything that can be wrong before any request, said in words, and the target.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ConformanceTarget } from '../engine/index.ts'
import { excludedRules } from '../judging/index.ts'
import { createOutput, type Output, Secrets } from '../output/index.ts'
import { type Baseline, parseBaseline } from '../reporting/index.ts'
import { invokedCommand } from './invoked-command.ts'
import { ensureWritableDirectory } from './preflight.ts'
import { type ConformanceOptions, defaults } from './run-options.ts'

/** What a run that can start works with: where it writes, what it redacts, whom it checks. */
export interface RunPlan {
  secrets: Secrets
  output: Output
  print: (line: string) => void
  target: ConformanceTarget
  /** Rules left out by `--checks` / `--exclude-checks`. */
  excluded: string[]
  baseline: Baseline | undefined
  reportDir: string
  timeoutMs: number
}

/**
 * Checks the options before any request and builds the run's target; a problem is a sentence saying what
 * to do (the run exits 2 with it), already redacted.
 */
export function checkOptions(options: ConformanceOptions): { plan: RunPlan } | { problem: string } {
  const secrets = (options.secrets ?? new Secrets()).addApiKey(options.apiKey).addBaseUrl(options.baseUrl)
  const output = options.print
    ? createOutput(secrets, {
        stdout: (text) => options.print?.(text.replace(/\n$/, '')),
        stderr: (text) => options.print?.(text.replace(/\n$/, '')),
      })
    : createOutput(secrets)
  const problem = (text: string) => ({ problem: secrets.redact(text) })
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  if (baseUrl === '')
    return problem(
      'No base URL: pass --base-url (with its version prefix, e.g. https://host/v1) or set CONFORMANCE_BASE_URL.',
    )
  if (!/^https?:\/\/[^/]/.test(baseUrl))
    return problem(
      `The base URL must be an http(s) URL including /v1, such as http://127.0.0.1:4010/v1; got "${options.baseUrl}".`,
    )
  if (!options.apiKey) return problem('No API key: set CONFORMANCE_API_KEY (or pass --api-key).')
  if (secrets.tooShort.length > 0)
    output.err(
      `Warning: a secret (${secrets.tooShort.join(', ')}) is shorter than 4 characters: it cannot be redacted from the output without destroying it, so it is written as it is.`,
    )
  const selection = excludedRules({
    ...(options.checks ? { checks: options.checks } : {}),
    ...(options.excludeChecks ? { excludeChecks: options.excludeChecks } : {}),
  })
  if (!selection.ok) return problem(`--checks / --exclude-checks: ${selection.problem}`)
  const baseline = options.baseline === undefined ? undefined : readBaselineFile(options.baseline)
  if (typeof baseline === 'string') return problem(baseline)
  const reportDir = resolve(options.reportDir ?? 'reports')
  const unwritable = ensureWritableDirectory(reportDir)
  if (unwritable) return problem(unwritable)

  const timeoutMs = (options.timeoutSeconds ?? defaults.timeoutSeconds) * 1000
  const target: ConformanceTarget = {
    baseUrl,
    apiKey: options.apiKey,
    readOnly: options.readOnly ?? false,
    requestTimeoutMs: (options.requestTimeoutSeconds ?? defaults.requestTimeoutSeconds) * 1000,
    maxResponseBytes: options.maxResponseBytes ?? defaults.maxResponseBytes,
    runDeadline: Date.now() + timeoutMs,
    namePrefix: options.namePrefix ?? 'conformance',
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 31),
    maxExamples: options.maxExamples ?? defaults.maxExamples,
    policy: options.policy ?? 'strict',
    excludedRules: selection.excluded,
    command: invokedCommand(),
    ...(options.network ? { network: options.network } : {}),
    ...(options.maxWrites === undefined ? {} : { maxWrites: options.maxWrites }),
    ...(options.maxCreatedTotal === undefined ? {} : { maxCreatedTotal: options.maxCreatedTotal }),
  }
  return {
    plan: {
      secrets,
      output,
      print: (line) => output.out(line),
      target,
      excluded: selection.excluded,
      baseline,
      reportDir,
      timeoutMs,
    },
  }
}

/** The baseline file, or a sentence saying why it cannot be used (the run exits 2 before any request). */
function readBaselineFile(path: string): Baseline | string {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return `Cannot read the baseline ${path} (${(error as NodeJS.ErrnoException).code}). Write one with --write-baseline ${path}, then give each entry a reason.`
  }
  const parsed = parseBaseline(text, path)
  return parsed.ok ? parsed.baseline : `The baseline cannot be used: ${parsed.problem}`
}
