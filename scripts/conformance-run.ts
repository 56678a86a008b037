// The conformance run itself: options, then runConformance, then the exit code. Started and watched by
// conformance.ts, which stops it from outside if it outlives --timeout.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { listChecksText } from '../suites/judging/index.ts'
import { type NetworkFlags, networkOptionsFrom } from '../suites/network/index.ts'
import { createOutput } from '../suites/output/index.ts'
import type { ExitReason } from '../suites/reporting/index.ts'
import { type ConformanceOutcome, runConformance } from '../suites/run-conformance.ts'
import { helpText, loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'
import { addOptionSecrets, earlySecrets } from './conformance-secrets.ts'
import { exitLines, type ReportOptions, unjudgedCommandRun } from './conformance-unjudged.ts'
import { isWatchedRun, watchedSeed, watchParent } from './conformance-watch.ts'

const help = helpText(conformanceCommand)
const usageLine = help.split('\n')[0] ?? ''
const started = { at: new Date(), seed: watchedSeed() ?? Math.floor(Math.random() * 2 ** 31) }
watchParent()
// The outer process that watches this run: the report's peak memory counts it.
const watcher = isWatchedRun() ? process.ppid : undefined

// Every line this command writes goes through the output boundary, redacted of the key however it was given
// (even a usage error may quote an argument), before the options are parsed.
const output = createOutput(earlySecrets(process.argv.slice(2), process.env))
// Once the options are read, an exit 2 writes the reports with its reason; before, it can only say it.
let readOptions: ReportOptions | undefined
function exitUnjudged(reason: ExitReason): never {
  if (!readOptions) output.err(`Cannot run (${reason.kind}): ${reason.message}\nWhat to do: ${reason.advice}`)
  else
    output.err(
      exitLines(
        unjudgedCommandRun(output, readOptions, reason, started),
        usageLine,
        readOptions['report-dir'],
      ),
    )
  process.exit(2)
}
const fail = (error: unknown) => {
  // The stack goes to the log, for the bug report; the reports (a pull-request comment among them) get
  // the message alone.
  if (error instanceof Error && error.stack) output.err(error.stack)
  exitUnjudged({
    kind: 'suite-error',
    message: `The suite could not run: ${error instanceof Error ? error.message : String(error)}`,
    advice: 'This is not the server’s fault: please report it, with the log above.',
  })
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
readOptions = values
// vitest runs the suite, and it is an optional peer of the package (about 40 MB the mock never needs):
// say what to install instead of failing on an import.
try {
  createRequire(import.meta.url).resolve('vitest/package.json')
} catch {
  exitUnjudged({
    kind: 'missing-dependency',
    message: 'The conformance suite runs on vitest, which is not installed here.',
    advice: 'Install it beside this kit, then run this again: npm install --save-dev vitest@^4.1',
  })
}
// Arguments are visible to every process on the machine (ps) and end up in CI logs and shell history.
if (parsed.sources['api-key'] === 'command line' && process.env.CI)
  output.err(
    'Warning: --api-key on a CI runner puts the key in the process list and in logs that echo commands; set CONFORMANCE_API_KEY from a secret instead.',
  )
const network = networkOptionsFrom(values as NetworkFlags, process.env, (file) => readFileSync(file, 'utf8'))
if ('problem' in network)
  exitUnjudged({ kind: 'options', message: network.problem, advice: 'Fix the option, then run this again.' })
addOptionSecrets(output.secrets, values, network.options)
if (parsed.configPath)
  output.out(`Options from ${parsed.configPath} (the command line and environment win over it).`)
const outcome: ConformanceOutcome = await runConformance({
  network: network.options,
  ...(values['max-writes'] === undefined ? {} : { maxWrites: values['max-writes'] }),
  ...(values['max-created-total'] === undefined ? {} : { maxCreatedTotal: values['max-created-total'] }),
  ...(values['name-prefix'] === undefined ? {} : { namePrefix: values['name-prefix'] }),
  seed: values.seed ?? started.seed,
  maxExamples: values['max-examples'],
  timeoutSeconds: values.timeout,
  requestTimeoutSeconds: values['request-timeout'],
  baseUrl: values['base-url'] ?? '',
  apiKey: values['api-key'] ?? '',
  readOnly: values['read-only'],
  reportDir: values['report-dir'],
  viaPrism: values['via-prism'],
  policy: values.policy,
  ...(values.date === undefined ? {} : { date: values.date }),
  ...(values.pact.length > 0 ? { pact: values.pact, pactDrift: values['pact-drift'] } : {}),
  ...(values.checks ? { checks: values.checks } : {}),
  ...(values['exclude-checks'] ? { excludeChecks: values['exclude-checks'] } : {}),
  ...(values.quiet ? { progress: false } : values.progress ? { progress: true } : {}),
  ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
  ...(values['write-baseline'] === undefined ? {} : { writeBaseline: values['write-baseline'] }),
  ...(values.previous === undefined ? {} : { previous: values.previous }),
  secrets: output.secrets,
  ...(watcher === undefined ? {} : { watchedBy: watcher }),
}).catch((error: Error) => fail(error))
if (outcome.exitCode === 2) output.err(exitLines(outcome, usageLine, values['report-dir']))
process.exit(outcome.exitCode)
