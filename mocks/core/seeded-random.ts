// The seeded generator latency ranges and fault rates draw from, so a run repeats in any runtime.
/**
 * A seeded pseudo-random generator (mulberry32: 32 bits of state, period 2^32), so latency drawn from a
 * range and faults drawn at a rate repeat from run to run and runtime to runtime for the same seed and the
 * same sequence of requests. Not for anything secret.
 * @example const random = seededRandom(1); random() // 0.6270739405881613
 */
export function seededRandom(seed: number): () => number {
  // A seed may be any safe integer; fold it into 32 bits so -1 and 2^40 still give distinct streams.
  let state = (seed ^ Math.floor(seed / 2 ** 32)) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = state
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32
  }
}
