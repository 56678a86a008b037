// The report of a run the watching process stopped, written through the run's own output boundary.
import { readFileSync } from 'node:fs'
import { type NetworkFlags, networkOptionsFrom } from '../suites/network/index.ts'
import { createOutput } from '../suites/output/index.ts'
import type { ExitReason } from '../suites/reporting/index.ts'
import { peakRssOf } from '../suites/run/index.ts'
import type { loadCommand } from './cli/command-options.ts'
import type { conformanceCommand } from './conformance-options.ts'
import { addOptionSecrets, earlySecrets } from './conformance-secrets.ts'
import { exitLines, unjudgedCommandRun } from './conformance-unjudged.ts'

export interface StoppedRunReporter {
  /** The peak memory of the run's process, read before it is stopped (undefined once it is gone). */
  peakRssOf(pid: number | undefined): number | undefined
  /**
   * Writes the reports of the stopped run and says why on stderr, redacted like every line of the run; the
   * report's peak memory is this process's and `runPeakRssBytes`.
   */
  write(reason: ExitReason, runPeakRssBytes?: number): void
}

/**
 * What writes the report of the run these options started, or undefined when its network options are wrong
 * (the run itself said so and exited).
 */
export function stoppedRunReporter(
  argv: readonly string[],
  values: Awaited<ReturnType<typeof loadCommand<typeof conformanceCommand>>>['values'],
  seed: number,
  startedAt: Date,
): StoppedRunReporter | undefined {
  const env = process.env
  const secrets = earlySecrets([...argv], env)
  const network = networkOptionsFrom(values as NetworkFlags, env, (file) => readFileSync(file, 'utf8'))
  if ('problem' in network) return undefined
  const output = createOutput(addOptionSecrets(secrets, values, network.options))
  return {
    peakRssOf,
    write(reason, runPeakRssBytes) {
      const outcome = unjudgedCommandRun(output, values, reason, { at: startedAt, seed }, runPeakRssBytes)
      output.err(exitLines(outcome, '', values['report-dir']))
    },
  }
}
