// Runs the HTTP mock's reset in ~10 ms steps, so seeding a million pets never stalls other requests.
import { isResetRequest, readResetRequest, resetAnswer } from '../core/control-endpoints.ts'
import type { MockRequest, MockResponse } from '../core/mock-http.ts'
import type { MockState, ResetOutcome, SeedOptions } from '../core/mock-state.ts'

/** The longest the event loop is held by one step of seeding, in ms. */
const resetStepMs = 10

/**
 * Wraps the core so that `POST /__mock/reset` seeds in steps of ~10 ms with other requests served in
 * between (a million pets take 1-2 s: all at once, that is 1-2 s during which nobody else is answered).
 * The store serves its old pets until the new ones are swapped in. Validation and answers are the core's;
 * only the scheduling is here. Resets run one after another, in the order they arrived.
 */
export function resetInSteps(
  handle: (request: MockRequest) => MockResponse,
  state: MockState,
  operationIds: readonly string[],
): (request: MockRequest) => MockResponse | Promise<MockResponse> {
  let previous: Promise<unknown> = Promise.resolve()
  return (request) => {
    if (!isResetRequest(request)) return handle(request)
    const read = readResetRequest(request, operationIds)
    if (!read.ok) return read.response
    const running = previous.then(() => seedInSteps(state, read.options))
    previous = running
    return running.then((outcome) => resetAnswer(state, outcome))
  }
}

async function seedInSteps(state: MockState, options: SeedOptions): Promise<ResetOutcome> {
  const job = state.beginReset(options)
  while (!job.step(performance.now() + resetStepMs)) {
    // setImmediate runs after pending I/O callbacks, so waiting requests are answered between steps.
    await new Promise((resolve) => setImmediate(resolve))
  }
  return job.commit()
}
