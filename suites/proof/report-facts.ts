// The facts of a run that report tests build their reports from: a target, two seconds, no pets, unless told.
import type { buildReport } from '../reporting/index.ts'

type RunFacts = Parameters<typeof buildReport>[1]

/**
 * A run against http://127.0.0.1:1/v1 with seed 42, two seconds long, that created nothing; `overrides`
 * replaces whole fields (`created`, `target`, the dates, `traffic`...).
 * @example buildReport(results, reportFacts({ created: { count: 3, namePrefix: 'conformance-abc' } }))
 */
export function reportFacts(overrides: Partial<RunFacts> = {}): RunFacts {
  return {
    target: { baseUrl: 'http://127.0.0.1:1/v1', readOnly: false, viaPrism: false, seed: 42 },
    startedAt: new Date('2026-01-01T00:00:00Z'),
    finishedAt: new Date('2026-01-01T00:00:02Z'),
    coverage: [],
    created: { count: 0, namePrefix: '' },
    ...overrides,
  }
}
