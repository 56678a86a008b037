// What a run uses for what it is not told: the defaults runConformance applies and the command shows.
import type { RunDefaults } from './run/index.ts'

/**
 * The defaults of a run, in a module that loads nothing: the command's outer process reads the options
 * with them while it watches the run, and importing them from the suite would load all of it for four
 * numbers (docs/decisions/outside-deadline.md).
 */
export const defaults: RunDefaults = {
  timeoutSeconds: 300,
  requestTimeoutSeconds: 10,
  maxResponseBytes: 4 * 1024 * 1024,
  maxExamples: 5,
}
