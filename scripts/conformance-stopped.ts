// What the watching process needs to report a run it stopped: the run's options, read as the run reads
// them, and the report writer. Loaded after the run is started, so the run's start does not wait for it.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { type NetworkFlags, networkOptionsFrom } from '../suites/network/index.ts'
import { createOutput } from '../suites/output/index.ts'
import { invokedCommand, peakRssOf, writeStoppedRun } from '../suites/run/index.ts'
import { loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'
import { addOptionSecrets, earlySecrets } from './conformance-secrets.ts'

export interface StoppedRunPlan {
  timeoutSeconds: number
  /** The peak memory of the run's process, read before it is stopped (undefined once it is gone). */
  peakRssOf(pid: number | undefined): number | undefined
  /**
   * Writes the reports of the stopped run and says why on stderr, redacted like every line of the run; the
   * report's peak memory is this process's and `runPeakRssBytes`.
   */
  write(reason: string, runPeakRssBytes?: number): void
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
    peakRssOf,
    write(reason, runPeakRssBytes) {
      const written = writeStoppedRun(output, {
        target: {
          baseUrl: (values['base-url'] ?? '').replace(/\/+$/, ''),
          readOnly: values['read-only'],
          viaPrism: values['via-prism'],
          seed: values.seed ?? seed,
          command: invokedCommand(),
        },
        reportDir: resolve(values['report-dir']),
        startedAt,
        reason,
        runPeakRssBytes,
      })
      output.err(typeof written === 'string' ? `Incomplete: ${reason}\n${written}` : `Incomplete: ${reason}`)
    },
  }
}
