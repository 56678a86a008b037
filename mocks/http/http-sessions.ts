// The HTTP mock's sessions as `npm start` builds them: a state and handler each, new ones seeded in steps.
import type { Contract } from '../../contract/index.ts'
import { createRequestHandler, operationIdsOf } from '../core/handle-request.ts'
import { createMockState, type MockStateOptions } from '../core/mock-state.ts'
import type { PactRecorder } from '../core/pact-recorder.ts'
import { createSessionPool } from '../core/sessions.ts'
import { resetInSteps } from './reset-in-steps.ts'
import { createSeedingLane, defaultMaxWaitingSeedings, type SeedingLaneOptions } from './seeding-lane.ts'

export interface HttpSessionsOptions {
  contract: Contract
  apiKeys: readonly string[]
  corsOrigins?: readonly string[]
  requireSession?: boolean
  /** Where every session starts: seed, pets, scenario, latency and faults, journal size. */
  start: Omit<MockStateOptions, 'budget' | 'storeRoom' | 'unseeded'>
  maxSessions: number
  /** The bytes all sessions' stores share (`--max-store-bytes`). */
  maxStoreBytes: number
  /** The default session's page cache; the named ones share one more of this size. */
  maxPageCacheBytes: number
  /** Records every session's exchanges into one Pact file (`--record`). */
  recorder?: PactRecorder
  /** New sessions' seeding: how many may wait at once, and an ordering hook for tests. */
  seeding?: Partial<SeedingLaneOptions>
}

/**
 * The session pool with every session's handler. The default session is seeded at once (before the
 * mock listens); a new named session is made empty and seeded in ~10 ms steps in a lane all new sessions
 * share, so its seeding never holds another session's requests for more than one step.
 * @throws when `maxSessions` is out of range, or the default session's pets do not fit.
 */
export function createHttpSessions(options: HttpSessionsOptions) {
  const operationIds = operationIdsOf(options.contract)
  const { maxSessions, maxStoreBytes, maxPageCacheBytes } = options
  const lane = createSeedingLane({ maxWaiting: defaultMaxWaitingSeedings, ...options.seeding })
  let sessions: ReturnType<typeof createSessionPool> | undefined
  const createSession = (name: string, storeRoom?: () => number) => {
    const isDefault = name === 'default'
    const state = createMockState({
      ...(storeRoom ? { storeRoom } : {}),
      ...options.start,
      unseeded: !isDefault,
      // The named sessions share one more page cache's worth, so sessions at most double its memory.
      budget: {
        maxStoreBytes,
        maxPageCacheBytes: isDefault
          ? maxPageCacheBytes
          : Math.floor(maxPageCacheBytes / Math.max(1, maxSessions)),
      },
    })
    const handle = createRequestHandler({
      contract: options.contract,
      state,
      apiKeys: options.apiKeys,
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
      sessions: () => sessions?.sessions(),
      ...(options.requireSession === undefined ? {} : { requireSession: options.requireSession }),
      ...(options.recorder ? { recorder: options.recorder } : {}),
    })
    return { state, handle: resetInSteps(handle, state, operationIds, isDefault ? undefined : lane) }
  }
  sessions = createSessionPool({ maxSessions, maxStoreBytes, create: createSession })
  return sessions
}
