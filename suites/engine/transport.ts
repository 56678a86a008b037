// The run's connection to the server, shared by every check: where, within what bounds, and what it saw.
import type { Violation } from '../judging/index.ts'
import type { RequestLimits } from '../network/index.ts'
import type { ConformanceTarget } from './target.ts'

/** The run's connection to the server: where, within what bounds, and whether it still answers. */
export interface Transport {
  target: ConformanceTarget
  limits: RequestLimits
  /** Requests in a row that got no complete response; a few in a row mean the server stopped answering. */
  failuresInARow: number
  /** Set once the server stopped answering: later requests are blocked by this instead of waiting. */
  down?: Violation
  /** The one request asking whether the server still answers, while it is in flight (send.ts). */
  probing?: Promise<void>
  /** Ids of pets whose create answered a changed value, with that finding: later reads are affected by it. */
  storedWrong: Map<string, Violation>
  /** Ids the server gave this run's creates: any other pet it serves was stored before the run. */
  createdIds: Set<string>
  /** Creates still waiting for their answer: a read that shows their pets waits for their verdict. */
  creates: Set<Promise<unknown>>
  /** Answers so far: each answer's place in the run. */
  answers: number
  /** Per read operation, the place of its first 2xx. */
  firstSuccess: Map<string, number>
  /** The first create answered 5xx, and its place: reads that worked before it and fail after are its damage. */
  brokenCreate?: { violation: Violation; at: number }
}
