#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type NetworkFlags, networkOptionsFrom } from '../suites/network-options.ts'
import { listChecksText } from '../suites/rule-selection.ts'
import { type ConformanceOutcome, runConformance } from '../suites/run-conformance.ts'
import { helpText, loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'

const help = helpText(conformanceCommand)

let parsed: Awaited<ReturnType<typeof loadCommand<typeof conformanceCommand>>>
try {
  parsed = await loadCommand(conformanceCommand, process.argv.slice(2))
} catch (error) {
  console.error(`Usage error: ${(error as Error).message}\n\n${help}`)
  process.exit(2)
}
const { values } = parsed
if (values.help) {
  console.log(help)
  process.exit(0)
}
if (values['list-checks']) {
  console.log(listChecksText())
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
const network = networkOptionsFrom(values as NetworkFlags, process.env, (file) => readFileSync(file, 'utf8'))
if ('problem' in network) {
  console.error(`Usage error: ${network.problem}\n\n${help}`)
  process.exit(2)
}
if (parsed.configPath)
  console.log(`Options from ${parsed.configPath} (the command line and environment win over it).`)
const outcome = await runConformance({
  network: network.options,
  ...(values['max-writes'] === undefined ? {} : { maxWrites: values['max-writes'] }),
  ...(values.seed === undefined ? {} : { seed: values.seed }),
  maxExamples: values['max-examples'],
  timeoutSeconds: values.timeout,
  requestTimeoutSeconds: values['request-timeout'],
  baseUrl: values['base-url'] ?? '',
  apiKey: values['api-key'] ?? '',
  readOnly: values['read-only'],
  reportDir: values['report-dir'],
  viaPrism: values['via-prism'],
  policy: values.policy,
  ...(values.checks ? { checks: values.checks } : {}),
  ...(values['exclude-checks'] ? { excludeChecks: values['exclude-checks'] } : {}),
  ...(values.quiet ? { progress: false } : values.progress ? { progress: true } : {}),
  ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
  ...(values['write-baseline'] === undefined ? {} : { writeBaseline: values['write-baseline'] }),
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
