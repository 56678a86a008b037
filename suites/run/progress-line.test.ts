import { describe, expect, it } from 'vitest'
import { formatProgress, showsProgress } from './progress-line.ts'

describe('the progress line', () => {
  it('shows checks done of all, requests sent and the time elapsed', () => {
    expect(formatProgress({ done: 12, total: 80, requests: 140, elapsedMs: 3400 })).toBe(
      'checks 12/80 · 140 requests · 3.4 s',
    )
  })

  it('adds the throttled answers once there are some', () => {
    expect(formatProgress({ done: 30, total: 80, requests: 300, throttled: 0, elapsedMs: 9000 })).toBe(
      'checks 30/80 · 300 requests · 9.0 s',
    )
    expect(formatProgress({ done: 30, total: 80, requests: 300, throttled: 42, elapsedMs: 9000 })).toBe(
      'checks 30/80 · 300 requests · 42 throttled · 9.0 s',
    )
  })

  it('shows on a terminal outside CI, and nowhere else unless asked', () => {
    expect(showsProgress(undefined, { isTTY: true }, {})).toBe(true)
    expect(showsProgress(undefined, { isTTY: true }, { CI: 'true' })).toBe(false)
    expect(showsProgress(undefined, { isTTY: false }, {})).toBe(false)
    expect(showsProgress(true, { isTTY: false }, { CI: 'true' })).toBe(true)
    expect(showsProgress(false, { isTTY: true }, {})).toBe(false)
  })
})
