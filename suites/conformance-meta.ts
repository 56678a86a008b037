import type { ConformanceTarget } from './target.ts'

/** What each check hands the reporter (vitest task meta must be JSON-serializable). */
export interface CheckMeta {
  group: string
  warnings: string[]
  /** The request sent and response received, as text, for failed checks. */
  exchanges: string[]
  /** On the coverage check only: the declared operation × status pairs and whether each was seen. */
  coverage?: { pair: string; seen: boolean }[]
}

declare module 'vitest' {
  interface ProvidedContext {
    conformanceTarget: ConformanceTarget
  }
  interface TaskMeta {
    conformance?: CheckMeta
  }
}
