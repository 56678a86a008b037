#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'
import { type NetworkFlags, networkOptionsFrom } from '../suites/network-options.ts'
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
  --max-writes N         create at most N pets; checks that would create more are skipped, saying why
  --rate-limit RATE      pace requests from the start, e.g. 20/s or 600/m (throttling is always waited out)
  --proxy URL            send every request through this http proxy (CONNECT for https); HTTP_PROXY,
                         HTTPS_PROXY and NO_PROXY are honoured without it
  --header 'NAME: VALUE' sent on every request (repeatable); values are secrets in every output
  --ca FILE              PEM certificates trusted besides the system roots
  --cert FILE --key FILE client certificate and key (PEM) for mTLS
  --key-passphrase-env VAR
                         the environment variable holding the key's passphrase
  --insecure             accept any TLS certificate (every report says so)
  --help                 show this help

Exit status: 0 the server conforms; 1 it breaks the contract (each distinct finding listed once);
2 the run could not judge it: bad options, server unreachable, API key refused, no API at the base URL,
report directory not writable, or the run's deadline passed.`

let values: Record<string, string | boolean | string[] | undefined>
try {
  ;({ values } = parseArgs({ options: conformanceOptions }))
} catch (error) {
  console.error(`Usage error: ${(error as Error).message}\n\n${help}`)
  process.exit(2)
}
if (values.help) {
  console.log(help)
  process.exit(0)
}
// vitest runs the suite, and it is an optional peer of the package (about 40 MB the mock never needs):
// say what to install instead of failing on an import.
try {
  createRequire(import.meta.url).resolve('vitest/package.json')
} catch {
  console.error(
    'Cannot run: the conformance suite runs on vitest, which is not installed here. Install it beside this kit, then run this again:\n  npm install --save-dev vitest@^4.1',
  )
  process.exit(2)
}
const seconds = (name: string) => {
  const raw = values[name]
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`Usage error: --${name} takes a number of seconds above 0; got "${raw}".\n\n${help}`)
    process.exit(2)
  }
  return value
}
const count = (name: string, min: number, max: number) => {
  const raw = values[name]
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(
      `Usage error: --${name} takes a whole number from ${min} to ${max}; got "${raw}".\n\n${help}`,
    )
    process.exit(2)
  }
  return value
}
const seed = count('seed', 0, 2 ** 31 - 1)
const maxExamples = count('max-examples', 1, 10_000)
const timeoutSeconds = seconds('timeout')
const requestTimeoutSeconds = seconds('request-timeout')
const network = networkOptionsFrom(values as NetworkFlags, process.env, (file) => readFileSync(file, 'utf8'))
if ('problem' in network) {
  console.error(`Usage error: ${network.problem}\n\n${help}`)
  process.exit(2)
}
const maxWrites = count('max-writes', 0, 1_000_000)
const outcome = await runConformance({
  network: network.options,
  ...(maxWrites === undefined ? {} : { maxWrites }),
  ...(seed === undefined ? {} : { seed }),
  ...(maxExamples === undefined ? {} : { maxExamples }),
  ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
  ...(requestTimeoutSeconds === undefined ? {} : { requestTimeoutSeconds }),
  baseUrl: String(values['base-url'] ?? process.env.CONFORMANCE_BASE_URL ?? ''),
  apiKey: String(values['api-key'] ?? process.env.CONFORMANCE_API_KEY ?? ''),
  readOnly: values['read-only'] === true,
  reportDir: String(values['report-dir']),
  viaPrism: values['via-prism'] === true,
}).catch(
  (error: Error): ConformanceOutcome => ({
    exitCode: 2,
    problem: `The suite could not run: ${error.message}`,
  }),
)
// A run that started and could not finish has its report above; only a run that never started needs usage.
if (outcome.problem)
  console.error(
    outcome.report
      ? `Incomplete: ${outcome.problem}`
      : `Cannot run: ${outcome.problem}\n\n${help.split('\n')[0]}`,
  )
process.exit(outcome.exitCode)
