// What the session pool costs a client that sends no X-Mock-Session, timed in-process against the core alone.
import { contract } from '../../contract/index.ts'
import { createRequestHandler } from '../../mocks/core/handle-request.ts'
import type { MockRequest } from '../../mocks/core/mock-http.ts'
import { createMockState } from '../../mocks/core/mock-state.ts'
import { createSessionPool } from '../../mocks/core/sessions.ts'
import { median } from './median.ts'

export interface SessionCost {
  /** ns per request through the core's handler alone (the mock as it was before sessions). */
  withoutSessions: number[]
  /** ns per request through the session pool, no X-Mock-Session sent. */
  unusedSessions: number[]
  /** Median of unused ÷ without, per round. */
  ratio: number
}

/**
 * What sessions cost a client that never sends X-Mock-Session: the same handler called directly and
 * through the session pool, in-process (a socket's noise would hide a difference this small), in
 * alternating rounds of `requests` GET /v1/pets?limit=20 each.
 */
export function measureSessionCost(rounds: number, requests = 200_000): SessionCost {
  const create = () => {
    const state = createMockState({})
    return { state, handle: createRequestHandler({ contract, state, apiKeys: ['k'] }) }
  }
  const alone = create().handle
  const pool = createSessionPool({ maxSessions: 64, create })
  const request: MockRequest = {
    method: 'GET',
    path: '/v1/pets',
    query: 'limit=20',
    headers: { authorization: 'Bearer k', host: '127.0.0.1' },
  }
  const time = (handle: (request: MockRequest) => unknown, count: number) => {
    const started = process.hrtime.bigint()
    for (let index = 0; index < count; index++) handle(request)
    return Number(process.hrtime.bigint() - started)
  }
  // Warm-up: both paths compiled by the JIT before any timed round.
  time(alone, requests)
  time(pool.handle, requests)
  const cost: SessionCost = { withoutSessions: [], unusedSessions: [], ratio: Number.NaN }
  const ratios: number[] = []
  // Each round interleaves short slices of both, swapping which goes first, so that a burst of load from
  // elsewhere on the machine falls on both alike.
  const slices = 20
  for (let round = 0; round < rounds; round++) {
    let without = 0
    let unused = 0
    for (let slice = 0; slice < slices; slice++) {
      const count = requests / slices
      if (slice % 2 === 0) {
        without += time(alone, count)
        unused += time(pool.handle, count)
      } else {
        unused += time(pool.handle, count)
        without += time(alone, count)
      }
    }
    cost.withoutSessions.push(without / requests)
    cost.unusedSessions.push(unused / requests)
    ratios.push(unused / without)
  }
  cost.ratio = median(ratios)
  return cost
}
