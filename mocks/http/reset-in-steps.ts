// Runs the HTTP mock's resets, and a new session's first seeding, in ~10 ms steps between other requests.
import { isResetRequest, readResetRequest, resetAnswer } from '../core/control-endpoints.ts'
import { errorResponse } from '../core/error-codes.ts'
import type { MockRequest, MockResponse } from '../core/mock-http.ts'
import type { MockState, ResetOutcome } from '../core/mock-state.ts'
import { runInSteps, type SeedingLane } from './seeding-lane.ts'

/** What a request to a session still seeding is told to wait before it tries again, in seconds. */
const busyRetryAfterSeconds = 1

/**
 * Wraps the core so that `POST /__mock/reset` seeds in steps of ~10 ms with other requests served in
 * between (a million pets take 1-2 s: all at once, that is 1-2 s during which nobody else is answered).
 * The store serves its old pets until the new ones are swapped in. Validation and answers are the core's;
 * only the scheduling is here. Resets run one after another, in the order they arrived.
 *
 * Given `firstSeeding`, `state` was made `unseeded`: its seeding runs in that lane (shared by all new
 * sessions), and the session's requests wait for it, so the first answer already sees every seeded pet.
 * When the lane is full they are answered 503 with Retry-After (and the next request tries again); when
 * the pets do not fit beside the other sessions', 507 store_full (likewise).
 */
export function resetInSteps(
  handle: (request: MockRequest) => MockResponse,
  state: MockState,
  operationIds: readonly string[],
  firstSeeding?: SeedingLane,
): (request: MockRequest) => MockResponse | Promise<MockResponse> {
  let previous: Promise<unknown> = Promise.resolve()
  let seeded = firstSeeding === undefined
  let seeding: Promise<ResetOutcome> | undefined
  const answer = (request: MockRequest): MockResponse | Promise<MockResponse> => {
    if (!isResetRequest(request)) return handle(request)
    const read = readResetRequest(request, operationIds)
    if (!read.ok) return read.response
    const running = previous.then(() => runInSteps(state.beginReset(read.options)))
    previous = running
    return running.then((outcome) => resetAnswer(state, outcome))
  }
  const afterSeeding = (outcome: ResetOutcome, request: MockRequest) =>
    outcome.ok
      ? answer(request)
      : errorResponse(
          'store_full',
          `No room for this session's seeded pets: ${outcome.reason} The sessions share --max-store-bytes; reset or stop using other sessions, seed fewer pets, or start the mock with a larger --max-store-bytes.`,
        )
  return (request) => {
    if (seeded) return answer(request)
    if (seeding) return seeding.then((outcome) => afterSeeding(outcome, request))
    const started = firstSeeding?.seed(() => state.beginReset())
    if (started === undefined)
      return errorResponse(
        'service_unavailable',
        `Too many new sessions are being seeded at once; retry after ${busyRetryAfterSeconds} s.`,
        { 'retry-after': String(busyRetryAfterSeconds) },
      )
    const settle = (outcome: ResetOutcome) => {
      seeded = outcome.ok
      seeding = undefined
      return outcome
    }
    if (!(started instanceof Promise)) return afterSeeding(settle(started), request)
    seeding = started.then(settle, (error: unknown) => {
      seeding = undefined
      throw error
    })
    previous = seeding
    return seeding.then((outcome) => afterSeeding(outcome, request))
  }
}
