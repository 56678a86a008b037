// The throttling policy: what is a gateway's 429/503, how long to wait, how fast to go after, traffic facts.
/**
 * Throttling is the network's answer, not the server's verdict: a gateway's 429 (or nginx's 503 page) is
 * waited out and the request sent again, and once the run has been throttled it paces itself so that it
 * stops hitting the limit. This module is the policy (what counts as throttling, how long to wait, how
 * fast to go); bounded-request.ts applies it to every request.
 */

/** What a run's traffic did, for the report: every figure counts each request once, however often resent. */
export interface TrafficFacts {
  /** Requests the run made (a resend after throttling is the same request). */
  requests: number
  /** Answers that were throttling (429, or 503 with Retry-After or a non-JSON page). */
  throttled: number
  /** Resends after throttling. */
  retried: number
  /** Seconds requests spent waiting out throttling (summed over requests, so above wall time when parallel). */
  secondsWaited: number
  /** Requests per second from the first request to the last answer. */
  effectiveRate: number
  /** The pace the run ended at, requests per second, when it was pacing itself. */
  pacedAt?: number
  /** Requests given up on because they stayed throttled beyond the budget. */
  refused: number
}

/** A rate as `--rate-limit` takes it: `20/s`, `600/m`, or a bare number of requests per second. */
export function parseRate(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*(s|sec|second|m|min|minute))?\s*$/i.exec(text)
  if (!match) return undefined
  const count = Number(match[1])
  const perMinute = /^m/i.test(match[2] ?? 's')
  const rate = perMinute ? count / 60 : count
  return rate > 0 && Number.isFinite(rate) ? rate : undefined
}

// The budget: a request refused this many times in a row is given up on, and the run with it (exit 2).
// With no Retry-After the waits before that are 0.5, 1, 2, 4, 8 and 16 s (jittered): about half a minute.
export const maxRefusals = 6
/** The budget's other half: throttled with no answer getting through for this long, the run gives up. */
export const maxStarvationMs = 30_000
/** No single wait is longer than this, whatever Retry-After asks. */
export const maxWaitMs = 60_000
const backoffBaseMs = 500
const backoffCapMs = 30_000

/**
 * Whether an answer is throttling rather than the server's answer to the request. 429 always, unless the
 * operation declares 429 itself (then it is an answer of the contract, judged as one). 503 with a
 * Retry-After, or with a body that is not JSON: the contract's errors are JSON, so an HTML 503 is a gateway's
 * (nginx `limit_req` answers 503 with its own page and no Retry-After by default). A 503 with a JSON body and
 * no Retry-After is the server's own answer, and is judged.
 */
export function isThrottled(
  response: { status: number; headers: Record<string, string>; body: string },
  declares429: boolean,
): boolean {
  if (response.status === 429) return !declares429
  if (response.status !== 503) return false
  if (response.headers['retry-after'] !== undefined) return true
  return !/json/i.test(response.headers['content-type'] ?? '')
}

/**
 * How long to wait before sending again: Retry-After as seconds or an HTTP-date (RFC 9110 §10.2.3), capped;
 * without one (or with one that cannot be read), exponential backoff with jitter by the number of refusals.
 */
export function waitBeforeRetry(retryAfter: string | undefined, refusals: number, now = Date.now()): number {
  const asked = retryAfterMs(retryAfter, now)
  if (asked !== undefined) return Math.min(asked, maxWaitMs)
  const ceiling = Math.min(backoffCapMs, backoffBaseMs * 2 ** Math.max(0, refusals - 1))
  // Half fixed, half random: requests refused together do not all come back at once.
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2))
}

function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  if (!/[a-z]/i.test(text) || Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/**
 * An adaptive token bucket. Unpaced until told a rate (`--rate-limit`) or until throttled; at the first
 * throttling it takes the rate the server accepted over the last two seconds, less a twentieth, and from then
 * on creeps up while nothing is refused and steps down when something is, so the run rides just under the
 * limit instead of bouncing off it. Requests are spaced evenly (a burst of one): a gateway's burst allowance
 * is spent once, at the start, and not counted on again.
 */
export class Pacer {
  /** Requests per second, or undefined while the run goes unpaced. */
  rate: number | undefined
  private readonly fixed: boolean
  private lastLeft = Number.NEGATIVE_INFINITY
  private queue: Promise<unknown> = Promise.resolve()
  private lastCut = 0
  private readonly accepted: number[] = []
  private lastAccepted = Date.now()

  constructor(rate?: number) {
    this.rate = rate
    this.fixed = rate !== undefined
  }

  /**
   * Waits for this request's turn. Turns go one at a time, in order, each a full interval after the one
   * before actually left, not after the slot it was given: an event loop that stalled (a busy runner) must
   * not wake a row of overdue requests at once, a burst a gateway counts against its allowance.
   * `sleep(ms)` waits, or answers false once the run is over; `now` is the clock.
   */
  turn(sleep: (ms: number) => Promise<boolean>, now: () => number = Date.now): Promise<boolean> {
    if (this.rate === undefined) return Promise.resolve(true)
    const mine = this.queue.then(async () => {
      const wait = this.rate === undefined ? 0 : this.lastLeft + 1000 / this.rate - now()
      const onTime = wait <= 0 || (await sleep(wait))
      this.lastLeft = now()
      return onTime
    })
    this.queue = mine
    return mine
  }

  /** An answer that was not throttling. */
  accept(now = Date.now()): void {
    this.lastAccepted = now
    this.accepted.push(now)
    while (this.accepted.length > 0 && (this.accepted[0] ?? now) < now - acceptedWindowMs)
      this.accepted.shift()
    // Additive increase, after a quiet spell: about one request per second more, every second.
    if (this.rate !== undefined && !this.fixed && now - this.lastCut > 1_000) this.rate += 1 / this.rate
  }

  /** How long no answer has got through (call on a refusal). */
  starvedFor(now = Date.now()): number {
    return now - this.lastAccepted
  }

  /**
   * A throttled answer to a request sent at `sentAt`: the pace steps down, once per second at most, and
   * only for a request sent at the current pace (answers to requests already in flight at the last step
   * say nothing new: stepping down for each would ratchet the pace far below the limit).
   */
  refuse(now = Date.now(), sentAt = now): void {
    if (now - this.lastCut < 1_000 || sentAt < this.lastCut) return
    this.lastCut = now
    const acceptedRate =
      this.accepted.filter((at) => at >= now - acceptedWindowMs).length / (acceptedWindowMs / 1000)
    const cut = Math.min(this.rate ?? Number.POSITIVE_INFINITY, acceptedRate > 0 ? acceptedRate : 1) * 0.95
    this.rate = Math.max(minRate, cut)
  }
}

const acceptedWindowMs = 2_000
const minRate = 0.5

/** The run's traffic in one sentence, for the text reports. */
export function trafficLine(traffic: TrafficFacts | undefined): string {
  if (!traffic) return ''
  return ` Traffic: ${traffic.requests} requests, ${traffic.throttled} throttled, ${traffic.retried} retried, ${traffic.secondsWaited} s waited, ${traffic.effectiveRate} requests/s.`
}
