// Handles on V8's collections for the body gate, got at run time: vitest's thread cannot be given --expose-gc.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** V8's `gc`: a full collection, or with `{ type: 'minor' }` a scavenge of the young generation only. */
type Collector = (options?: { type: 'minor' }) => void

/**
 * V8's full garbage collection, for the one place that knows a burst of garbage has just ended: a large
 * body read, decoded, parsed and let go (docs/decisions/gate-for-large-bodies.md says why V8 needs it).
 * `--expose-gc` is set at run time, as the launcher cannot pass it to vitest's thread; `undefined` when
 * the runtime refuses (the gate then goes on without).
 */
export function fullCollection(): (() => void) | undefined {
  const gc = exposedGc()
  return gc && (() => gc())
}

/**
 * A scavenge: the young generation only, about a millisecond. Every read off a socket is a buffer of its
 * own, copied into its body and dropped; V8 counts those buffers as external memory and let tens of
 * megabytes of them lie before it collected them. `undefined` where the runtime refuses.
 */
export function youngCollection(): (() => void) | undefined {
  const gc = exposedGc()
  return gc && (() => gc({ type: 'minor' }))
}

function exposedGc(): Collector | undefined {
  const exposed = (globalThis as { gc?: Collector }).gc
  if (typeof exposed === 'function') return exposed
  try {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as unknown
    return typeof gc === 'function' ? (gc as Collector) : undefined
  } catch {
    return undefined
  }
}
