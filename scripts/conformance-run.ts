// The conformance run itself: options, then runConformance, then the exit code. Started and watched by
// conformance.ts, which stops it from outside if it outlives --timeout.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { listChecksText } from '../suites/judging/index.ts'
import { type NetworkFlags, networkOptionsFrom } from '../suites/network/index.ts'
import { createOutput } from '../suites/output/index.ts'
import { type ConformanceOutcome, runConformance } from '../suites/run-conformance.ts'
import { helpText, loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'
import { addOptionSecrets, earlySecrets } from './conformance-secrets.ts'
import { watchedSeed, watchParent } from './conformance-watch.ts'

const help = helpText(conformanceCommand)
watchParent()

// Every line this command writes goes through the output boundary, redacted of the key however it was given
// (even a usage error may quote an argument), before the options are parsed.
const output = createOutput(earlySecrets(process.argv.slice(2), process.env))
const fail = (error: unknown) => {
  output.err(`The suite could not run: ${(error as Error)?.stack ?? String(error)}`)
  process.exit(2)
}
// An unhandled rejection reaches this too (Node's default turns it into an uncaught exception).
process.on('uncaughtException', fail)

let parsed: Awaited<ReturnType<typeof loadCommand<typeof conformanceCommand>>>
try {
  parsed = await loadCommand(conformanceCommand, process.argv.slice(2))
} catch (error) {
  output.err(`Usage error: ${(error as Error).message}\n\n${help}`)
  process.exit(2)
}
const { values } = parsed
if (values.help) {
  output.out(help)
  process.exit(0)
}
if (values['list-checks']) {
  output.out(listChecksText())
  process.exit(0)
}
// A key or base URL may also come from the config file (through an environment variable it names).
output.secrets.addApiKey(values['api-key'] ?? '')
output.secrets.addBaseUrl(values['base-url'] ?? '')
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
// Arguments are visible to every process on the machine (ps) and end up in CI logs and shell history.
if (parsed.sources['api-key'] === 'command line' && process.env.CI)
  output.err(
    'Warning: --api-key on a CI runner puts the key in the process list and in logs that echo commands; set CONFORMANCE_API_KEY from a secret instead.',
  )
const network = networkOptionsFrom(values as NetworkFlags, process.env, (file) => readFileSync(file, 'utf8'))
if ('problem' in network) {
  output.err(`Usage error: ${network.problem}\n\n${help}`)
  process.exit(2)
}
addOptionSecrets(output.secrets, values, network.options)
if (parsed.configPath)
  output.out(`Options from ${parsed.configPath} (the command line and environment win over it).`)
const outcome = await runConformance({
  network: network.options,
  ...(values['max-writes'] === undefined ? {} : { maxWrites: values['max-writes'] }),
  ...(values['max-created-total'] === undefined ? {} : { maxCreatedTotal: values['max-created-total'] }),
  seed: values.seed ?? watchedSeed(),
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
