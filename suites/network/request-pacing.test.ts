import { describe, expect, it } from 'vitest'
import { isThrottled, maxWaitMs, Pacer, parseRate, waitBeforeRetry } from './request-pacing.ts'

const answer = (status: number, headers: Record<string, string> = {}) => ({ status, headers, body: '' })

describe('what counts as throttling', () => {
  it.each([
    ['429 without Retry-After', answer(429), false, true],
    ['429 the operation declares', answer(429), true, false],
    [
      '503 with Retry-After',
      answer(503, { 'retry-after': '2', 'content-type': 'application/json' }),
      false,
      true,
    ],
    ['503 with an HTML page (nginx limit_req)', answer(503, { 'content-type': 'text/html' }), false, true],
    [
      '503 with a JSON body and no Retry-After (the server’s own)',
      answer(503, { 'content-type': 'application/json' }),
      false,
      false,
    ],
    ['500', answer(500, { 'retry-after': '1' }), false, false],
  ])('%s', (_, response, declares429, throttled) => {
    expect(isThrottled(response, declares429)).toBe(throttled)
  })
})

describe('how long to wait', () => {
  it('takes Retry-After in seconds', () => {
    expect(waitBeforeRetry('3', 1)).toBe(3_000)
  })

  it('takes Retry-After as an HTTP-date', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')
    expect(waitBeforeRetry('Wed, 21 Oct 2015 07:28:05 GMT', 1, now)).toBe(5_000)
  })

  it('caps every wait, whatever the server asks', () => {
    expect(waitBeforeRetry('86400', 1)).toBe(maxWaitMs)
  })

  it('backs off exponentially with jitter without Retry-After (or with one it cannot read)', () => {
    for (const [refusals, ceiling] of [
      [1, 500],
      [2, 1_000],
      [4, 4_000],
    ] as const) {
      const wait = waitBeforeRetry(refusals === 2 ? 'soon' : undefined, refusals)
      expect(wait).toBeGreaterThanOrEqual(ceiling / 2)
      expect(wait).toBeLessThanOrEqual(ceiling)
    }
  })
})

describe('--rate-limit', () => {
  it.each([
    ['20/s', 20],
    ['600/m', 10],
    ['5', 5],
    ['1.5/sec', 1.5],
  ])('reads %s', (text, rate) => {
    expect(parseRate(text)).toBe(rate)
  })

  it.each(['0/s', 'fast', '-3/s', '20/h'])('refuses %s', (text) => {
    expect(parseRate(text)).toBeUndefined()
  })
})

describe('the adaptive token bucket', () => {
  /** A clock that only the pacer's sleeps move; `stall(ms)` makes the next sleep wake that much late. */
  function clocked(pacer: Pacer) {
    let now = 1_000
    let late = 0
    const left: number[] = []
    const sleep = async (ms: number) => {
      now += ms + late
      late = 0
      return true
    }
    const send = () => pacer.turn(sleep, () => now).then(() => left.push(now))
    return { left, send, stall: (ms: number) => (late = ms) }
  }

  it('spaces requests evenly at a given rate from the first one', async () => {
    const { left, send } = clocked(new Pacer(20))
    await Promise.all([send(), send(), send(), send()])
    expect(left).toEqual([1_000, 1_050, 1_100, 1_150])
  })

  it('lets no burst out when a wait wakes late: each turn a full interval after the one before left', async () => {
    const { left, send, stall } = clocked(new Pacer(20))
    stall(500)
    await Promise.all([send(), send(), send(), send()])
    expect(left).toEqual([1_000, 1_550, 1_600, 1_650])
  })

  it('goes unpaced until throttled, then just under the rate the server accepted', () => {
    const pacer = new Pacer()
    expect(pacer.rate).toBeUndefined()
    for (let at = 0; at < 40; at++) pacer.accept(1_000 + at)
    pacer.refuse(1_100)
    // 40 accepted over the last 2 s: 20 per second, less a twentieth.
    expect(pacer.rate).toBeCloseTo(19)
  })

  it('steps down once per second at most, for answers already in flight say the same', () => {
    const pacer = new Pacer(10)
    pacer.refuse(5_000)
    const once = pacer.rate
    pacer.refuse(5_100)
    expect(pacer.rate).toBe(once)
  })

  it('does not step down again for requests that were already in flight at the last step', () => {
    const pacer = new Pacer(10)
    pacer.refuse(5_000)
    const once = pacer.rate
    pacer.refuse(6_500, 4_900)
    expect(pacer.rate).toBe(once)
    pacer.refuse(6_600, 6_000)
    expect(pacer.rate).toBeLessThan(once ?? 0)
  })
})
