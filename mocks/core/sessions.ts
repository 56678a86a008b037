// The HTTP mock's X-Mock-Session pool: a store per name, so parallel test workers never share pets.
import { errorResponse } from './error-codes.ts'
import type { MockRequest, MockResponse } from './mock-http.ts'
import type { MockState } from './mock-state.ts'

/** The request header that picks a session; without it a request uses the default session. */
const sessionHeader = 'x-mock-session'

/** How many named sessions the HTTP mock keeps unless told otherwise (the default session is extra). */
export const defaultMaxSessions = 64

/** The longest session name, and what it may hold: safe in a URL, a log line and a file name. */
const sessionNamePattern = /^[A-Za-z0-9._~-]{1,64}$/

type Handle = (request: MockRequest) => MockResponse | Promise<MockResponse>

export interface Session {
  state: MockState
  handle: Handle
}

export interface SessionSummary {
  name: string
  pets: number
  storeBytes: number
  scenario: string
  /** When a request last used it (not kept for the default session: that would cost every request a clock read). */
  lastUsed?: string
}

export interface SessionPoolOptions {
  /** Named sessions kept at once; the least recently used one is dropped to make room. */
  maxSessions: number
  /**
   * The bytes every session's store may hold together (the default session's included), so that sessions
   * multiply the mock's memory by nothing. Without it, each store keeps only its own budget.
   */
  maxStoreBytes?: number
  /**
   * Builds a session's own state and handler from the mock's configured start; `storeRoom` is the
   * room the other sessions leave its store (pass it to `createMockState`).
   */
  create(name: string, storeRoom?: () => number): Session
}

/**
 * The HTTP mock's sessions: an independent store, settings and journal per `X-Mock-Session` name, so
 * parallel test workers (or an SSR server forwarding the header) never see each other's pets. Requests
 * without the header go to the default session, which is never evicted; without sessions in use this
 * costs one header lookup per request.
 * @example const pool = createSessionPool({ maxSessions: 8, create }); serveHttp(pool.handle, options)
 */
export function createSessionPool(options: SessionPoolOptions) {
  if (!Number.isSafeInteger(options.maxSessions) || options.maxSessions < 0)
    throw new Error(`maxSessions must be a whole number from 0; got ${options.maxSessions}.`)
  // A Map keeps insertion order: deleting and setting on every use keeps the least recently used first.
  const named = new Map<string, Session & { lastUsed: number }>()
  const { maxStoreBytes } = options
  /** The room the other sessions leave one: summed when a pet is added, over at most maxSessions + 1. */
  const roomBeside = (name: string) => {
    if (maxStoreBytes === undefined) return undefined
    return () => {
      let others = name === 'default' ? 0 : defaultSession.state.store.usedBytes
      for (const [other, session] of named) if (other !== name) others += session.state.store.usedBytes
      return maxStoreBytes - others
    }
  }
  const defaultSession = options.create('default', roomBeside('default'))

  const summary = (name: string, session: Session, lastUsed?: number): SessionSummary => ({
    name,
    pets: session.state.store.size,
    storeBytes: session.state.store.usedBytes,
    scenario: session.state.scenario,
    ...(lastUsed === undefined ? {} : { lastUsed: new Date(lastUsed).toISOString() }),
  })

  const sessionOf = (name: string): Session => {
    const found = named.get(name)
    if (found) {
      named.delete(name)
      found.lastUsed = Date.now()
      named.set(name, found)
      return found
    }
    if (options.maxSessions === 0) throw new NoSessions()
    while (named.size >= options.maxSessions) {
      const oldest = named.keys().next().value
      if (oldest === undefined) break
      named.delete(oldest)
    }
    let session: Session
    try {
      session = options.create(name, roomBeside(name))
    } catch (error) {
      // Its seeded pets do not fit beside the other sessions' (the only way a configured start can fail
      // here: the options were checked when the default session was made).
      throw new NoRoom((error as Error).message)
    }
    const created = { ...session, lastUsed: Date.now() }
    named.set(name, created)
    return created
  }

  return {
    /** Routes a request to its session's handler. */
    handle(request: MockRequest): MockResponse | Promise<MockResponse> {
      const name = request.headers[sessionHeader]
      if (name === undefined || name === 'default') return defaultSession.handle(request)
      if (!sessionNamePattern.test(name))
        return errorResponse(
          'invalid_parameter',
          `X-Mock-Session must be 1 to 64 letters, digits, ".", "_", "~" or "-"; got ${JSON.stringify(name.slice(0, 80))}.`,
        )
      let session: Session
      try {
        session = sessionOf(name)
      } catch (error) {
        if (error instanceof NoRoom)
          return errorResponse(
            'store_full',
            `No room for session "${name}": ${error.message} The sessions share --max-store-bytes; reset or stop using other sessions, seed fewer pets, or start the mock with a larger --max-store-bytes.`,
          )
        if (!(error instanceof NoSessions)) throw error
        return errorResponse(
          'invalid_parameter',
          'This mock was started with --max-sessions 0: send requests without X-Mock-Session, or start it with a session count.',
        )
      }
      return session.handle(request)
    },
    /** The default session's state (what a mock without sessions would have). */
    defaultState: defaultSession.state,
    /** The sessions held, for the health endpoint: the default first, then least recently used first. */
    sessions() {
      return {
        maxSessions: options.maxSessions,
        ...(maxStoreBytes === undefined ? {} : { maxStoreBytes }),
        active: [
          summary('default', defaultSession),
          ...[...named].map(([name, session]) => summary(name, session, session.lastUsed)),
        ],
      }
    },
  }
}

class NoSessions extends Error {}
class NoRoom extends Error {}
