// Reads again, on a connection of its own, a read that got two answers, and names the request the extra one followed.
import type { Desync } from './connection-watch.ts'
import type { Received } from './received.ts'
import type { RequestOutcome } from './request-outcome.ts'

/**
 * A request whose connection brought a second response before the next request was written: node:http
 * took the first as its answer and closed the connection on the second. Which of the two was its own,
 * HTTP/1.1 cannot say (a response names no request).
 */
export interface SecondAnswer {
  /** The watch's record of it, whose `after` this module settles. */
  desync: Desync
  /** This request, and the one sent on that connection before it, as `METHOD path`. */
  request: string
  before?: string
}

// Reads only (RFC 9110 §9.2.2): sending a write again may create or change twice, so a write keeps the
// answer it got, and its check is blocked by the unsolicited-response finding (its connection is suspect).
const readAgainMethods = new Set(['GET', 'HEAD'])

/**
 * Sends a read that got two answers once more, on a connection of its own (`sendAlone`), and keeps that
 * answer. Then names the request the extra response followed: this one if the answer it took first is
 * the one it gets alone (the server answered it twice), else the request before it on that connection
 * (the server answered that one twice, late, and this one took the extra response for its own). A write,
 * or a retry that got no answer, leaves the blame with this request.
 * docs/decisions/unsolicited-bytes-on-pooled-connections.md
 */
export async function readAgain(
  method: string,
  first: Extract<RequestOutcome, { ok: true }>,
  second: SecondAnswer,
  sendAlone: () => Promise<RequestOutcome>,
): Promise<RequestOutcome> {
  second.desync.after = second.request
  if (!readAgainMethods.has(method.toUpperCase())) return first
  const alone = await sendAlone()
  if (alone.ok && second.before !== undefined && !sameAnswer(first.response, alone.response))
    second.desync.after = second.before
  return alone
}

// The status and the body as read: headers carry dates and ids that differ between two honest answers.
function sameAnswer(one: Received, other: Received): boolean {
  return one.status === other.status && one.body === other.body
}
