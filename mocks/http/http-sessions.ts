// The HTTP mock's sessions as `npm start` builds them: a state and handler each, sharing the seeded pets.
import type { Contract } from '../../contract/index.ts'
import { createRequestHandler, operationIdsOf } from '../core/handle-request.ts'
import { createMockState, type MockStateOptions } from '../core/mock-state.ts'
import type { PactRecorder } from '../core/pact-recorder.ts'
import { createSessionPool } from '../core/sessions.ts'
import { resetInSteps } from './reset-in-steps.ts'

export interface HttpSessionsOptions {
  contract: Contract
  apiKeys: readonly string[]
  corsOrigins?: readonly string[]
  requireSession?: boolean
  /** Where every session starts: seed, pets, scenario, latency and faults, journal size. */
  start: Omit<MockStateOptions, 'budget' | 'storeRoom' | 'seededPets'>
  maxSessions: number
  /** The bytes all sessions' stores share (`--max-store-bytes`). */
  maxStoreBytes: number
  /** The default session's page cache; the named ones share one more of this size. */
  maxPageCacheBytes: number
  /** Records every session's exchanges into one Pact file (`--record`). */
  recorder?: PactRecorder
}

/**
 * The session pool with every session's handler. The default session is seeded at once (before the
 * mock listens); a new named session starts from those same seeded pets, shared and never written, so
 * it costs no seeding and holds no other session's requests (each session's own pets come after them).
 * @throws when `maxSessions` is out of range, or the default session's pets do not fit.
 */
export function createHttpSessions(options: HttpSessionsOptions) {
  const operationIds = operationIdsOf(options.contract)
  const { maxSessions, maxStoreBytes, maxPageCacheBytes } = options
  let sessions: ReturnType<typeof createSessionPool> | undefined
  const createSession = (name: string, storeRoom?: () => number) => {
    const isDefault = name === 'default'
    const seededPets = sessions?.defaultState.configuredPets
    const state = createMockState({
      ...(storeRoom ? { storeRoom } : {}),
      ...options.start,
      ...(seededPets ? { seededPets } : {}),
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
    return { state, handle: resetInSteps(handle, state, operationIds) }
  }
  sessions = createSessionPool({ maxSessions, maxStoreBytes, create: createSession })
  return sessions
}
