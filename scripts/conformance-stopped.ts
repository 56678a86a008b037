// What the watching process needs to report a run it stopped: the run's options, read as the run reads
// them, and the report writer. Loaded after the run is started, so the run's start does not wait for it.
import { readFileSync } from 'node:fs'
import { type NetworkFlags, networkOptionsFrom } from '../suites/network/index.ts'
import { createOutput } from '../suites/output/index.ts'
import type { ExitReason } from '../suites/reporting/index.ts'
import { loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'
import { addOptionSecrets, earlySecrets } from './conformance-secrets.ts'
import { exitLines, unjudgedCommandRun } from './conformance-unjudged.ts'

export interface StoppedRunPlan {
  timeoutSeconds: number
  /** Writes the reports of the stopped run and says why on stderr, redacted like every line of the run. */
  write(reason: ExitReason): void
}

/**
 * The plan for a run that may have to be stopped, or undefined when there is no run to watch: the options
 * do not parse, or ask for --help or --list-checks (the run itself says so and exits at once).
 */
export async function stoppedRunPlan(
  argv: readonly string[],
  seed: number,
  startedAt: Date,
): Promise<StoppedRunPlan | undefined> {
  const env = process.env
  const secrets = earlySecrets([...argv], env)
  let values: Awaited<ReturnType<typeof loadCommand<typeof conformanceCommand>>>['values']
  try {
    values = (await loadCommand(conformanceCommand, argv)).values
  } catch {
    return undefined
  }
  if (values.help || values['list-checks']) return undefined
  const network = networkOptionsFrom(values as NetworkFlags, env, (file) => readFileSync(file, 'utf8'))
  if ('problem' in network) return undefined
  const output = createOutput(addOptionSecrets(secrets, values, network.options))
  return {
    timeoutSeconds: values.timeout,
    write(reason) {
      const outcome = unjudgedCommandRun(output, values, reason, { at: startedAt, seed })
      output.err(exitLines(outcome, '', values['report-dir']))
    },
  }
}
