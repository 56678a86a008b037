// What a check hands the reporter through vitest's task meta, and the vitest types that carry it.
import type { ConsumerDeprecatedUse, CoverageRow } from '../checks/index.ts'
import type { CheckResult, ConformanceTarget } from '../engine/index.ts'
import type { DesyncFacts, TrafficFacts } from '../network/index.ts'
import type { TaggedCount } from '../reporting/index.ts'

/** What each check hands the reporter through vitest's task meta (JSON-serializable). */
export interface CheckMeta {
  result: CheckResult
  /** Answers the run had seen throttled when this check finished, for the progress line. */
  throttled?: number
  /** On the last check only: what the run as a whole saw and did. */
  run?: {
    coverage: CoverageRow[]
    created: number
    namePrefix: string
    createdIds?: string[]
    /** Pets of earlier runs the reading checks used, and the tagged pets seen before the first create. */
    reusedIds?: string[]
    tagged?: TaggedCount
    maxCreatedTotal?: number
    traffic?: TrafficFacts
    /** Responses nobody asked for, and the connections whose answers they spoiled. */
    desync?: DesyncFacts
    /** The deprecated operations consumers' recorded interactions (--pact) call. */
    deprecatedUse?: ConsumerDeprecatedUse[]
  }
}

declare module 'vitest' {
  interface ProvidedContext {
    conformanceTarget: ConformanceTarget
  }
  interface TaskMeta {
    conformance?: CheckMeta
    /** The block a check is reported under (its group, or a later stage), given when the test is declared. */
    block?: string
  }
}
