#!/usr/bin/env node
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { createOutput } from '../suites/output/output-boundary.ts'
import { Secrets } from '../suites/output/secrets.ts'
import { type ConformanceOutcome, defaults, runConformance } from '../suites/run-conformance.ts'
import { conformanceOptions } from './conformance-options.ts'

const help = `Usage: animal-store-conformance --base-url URL --api-key KEY [options]
       (in this repository: npm run conformance -- --base-url URL --api-key KEY [options])

Replays every operation of the Animal Store contract against a server and checks every response
(status, Content-Type, body schema, Error shape, headers) with Ajv, plus auth, limits, filters,
negative bodies generated from the schema, and that created pets can be read back.

Options:
  --base-url URL         the server, /v1 included (env CONFORMANCE_BASE_URL)
  --api-key KEY          a valid API key; prefer env CONFORMANCE_API_KEY (others on the machine see
                         arguments in ps)
  --read-only            never create pets (production): checks needing a pet use one found by listing
  --report-dir DIR       where junit.xml, conformance.json, summary.md and conformance.html go
                         (default reports/)
  --via-prism            also send traffic through Prism's validating proxy; each violation it reports
                         is checked against the response, and false positives become notes
  --timeout SECONDS      the whole run's deadline (default ${defaults.timeoutSeconds}); past it the run exits 2
  --request-timeout SECONDS
                         one request's deadline, headers and body (default ${defaults.requestTimeoutSeconds})
  --seed N               seed of the generated requests and sequences (default: random; every report
                         prints it, and the same seed replays them)
  --max-examples N       random sequences the stateful model runs (default ${defaults.maxExamples})
  --help                 show this help

Exit status: 0 the server conforms; 1 it breaks the contract (each distinct finding listed once);
2 the run could not judge it: bad options, server unreachable, API key refused, no API at the base URL,
report directory not writable, or the run's deadline passed.`

// Every line this command writes goes through the output boundary, redacted of the key however it was given
// (even a usage error may quote an argument), before the options are parsed.
const output = createOutput(Secrets.forRun(secretsOf(process.argv.slice(2), process.env)))
const fail = (error: unknown) => {
  output.err(`The suite could not run: ${(error as Error)?.stack ?? String(error)}`)
  process.exit(2)
}
// An unhandled rejection reaches this too (Node's default turns it into an uncaught exception).
process.on('uncaughtException', fail)

let values: Record<string, string | boolean | undefined>
try {
  ;({ values } = parseArgs({ options: conformanceOptions }))
} catch (error) {
  output.err(`Usage error: ${(error as Error).message}\n\n${help}`)
  process.exit(2)
}
if (values.help) {
  output.out(help)
  process.exit(0)
}
// vitest runs the suite, and it is an optional peer of the package (about 40 MB the mock never needs):
// say what to install instead of failing on an import.
try {
  createRequire(import.meta.url).resolve('vitest/package.json')
} catch {
  output.err(
    'Cannot run: the conformance suite runs on vitest, which is not installed here. Install it beside this kit, then run this again:\n  npm install --save-dev vitest@^4.1',
  )
  process.exit(2)
}
const seconds = (name: string) => {
  const raw = values[name]
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) {
    output.err(`Usage error: --${name} takes a number of seconds above 0; got "${raw}".\n\n${help}`)
    process.exit(2)
  }
  return value
}
const count = (name: string, min: number, max: number) => {
  const raw = values[name]
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    output.err(`Usage error: --${name} takes a whole number from ${min} to ${max}; got "${raw}".\n\n${help}`)
    process.exit(2)
  }
  return value
}
// Arguments are visible to every process on the machine (ps) and end up in CI logs and shell history.
if (values['api-key'] !== undefined && process.env.CI)
  output.err(
    'Warning: --api-key on a CI runner puts the key in the process list and in logs that echo commands; set CONFORMANCE_API_KEY from a secret instead.',
  )
const seed = count('seed', 0, 2 ** 31 - 1)
const maxExamples = count('max-examples', 1, 10_000)
const timeoutSeconds = seconds('timeout')
const requestTimeoutSeconds = seconds('request-timeout')
const outcome = await runConformance({
  ...(seed === undefined ? {} : { seed }),
  ...(maxExamples === undefined ? {} : { maxExamples }),
  ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
  ...(requestTimeoutSeconds === undefined ? {} : { requestTimeoutSeconds }),
  baseUrl: String(values['base-url'] ?? process.env.CONFORMANCE_BASE_URL ?? ''),
  apiKey: String(values['api-key'] ?? process.env.CONFORMANCE_API_KEY ?? ''),
  readOnly: values['read-only'] === true,
  reportDir: String(values['report-dir']),
  viaPrism: values['via-prism'] === true,
  secrets: output.secrets,
}).catch(
  (error: Error): ConformanceOutcome => ({
    exitCode: 2,
    problem: `The suite could not run: ${error.message}`,
  }),
)
// A run that started and could not finish has its report above; only a run that never started needs usage.
if (outcome.problem)
  output.err(
    outcome.report
      ? `Incomplete: ${outcome.problem}`
      : `Cannot run: ${outcome.problem}\n\n${help.split('\n')[0]}`,
  )
process.exit(outcome.exitCode)

/** The key and base URL as the command will read them, before parsing: `--api-key K`, `--api-key=K`, the environment. */
function secretsOf(argv: string[], env: NodeJS.ProcessEnv): { apiKey: string; baseUrl: string } {
  const given = (name: string) => {
    const at = argv.findIndex((arg) => arg === name || arg.startsWith(`${name}=`))
    if (at < 0) return undefined
    const arg = argv[at] ?? ''
    return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[at + 1]
  }
  return {
    apiKey: given('--api-key') ?? env.CONFORMANCE_API_KEY ?? '',
    baseUrl: given('--base-url') ?? env.CONFORMANCE_BASE_URL ?? '',
  }
}
