// Runs the HTTP mock's resets in ~10 ms steps between other requests.
import { isResetRequest, readResetRequest, resetAnswer } from '../core/control-endpoints.ts'
import type { MockRequest, MockResponse } from '../core/mock-http.ts'
import type { MockState } from '../core/mock-state.ts'
import { runInSteps } from './run-in-steps.ts'

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
    const running = previous.then(() => runInSteps(state.beginReset(read.options)))
    previous = running
    return running.then((outcome) => resetAnswer(state, outcome))
  }
}
