// What the watching process needs to report a run it stopped: the run's options, read as the run reads
// them, and the report writer, loaded only once there is a stopped run to report.
import { loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'
import type { StoppedRunReporter } from './conformance-stopped-report.ts'

export interface StoppedRunPlan {
  timeoutSeconds: number
  /**
   * Loads what writes the report of a stopped run: the suite's output boundary and report model, which
   * this process does not hold while the run goes well. Undefined when the network options are wrong (the
   * run says so itself and exits at once).
   */
  reporter(): Promise<StoppedRunReporter | undefined>
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
  let values: Awaited<ReturnType<typeof loadCommand<typeof conformanceCommand>>>['values']
  try {
    values = (await loadCommand(conformanceCommand, argv)).values
  } catch {
    return undefined
  }
  if (values.help || values['list-checks']) return undefined
  return {
    timeoutSeconds: values.timeout,
    reporter: async () =>
      (await import('./conformance-stopped-report.ts')).stoppedRunReporter(argv, values, seed, startedAt),
  }
}
