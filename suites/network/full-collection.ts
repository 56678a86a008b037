// A handle on V8's full GC for the body gate, got at run time: vitest's thread cannot be given --expose-gc.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * V8's full garbage collection, for the one place that knows a burst of garbage has just ended: a large
 * body read, decoded, parsed and let go (docs/decisions/gate-for-large-bodies.md says why V8 needs it).
 * `--expose-gc` is set at run time, as the launcher cannot pass it to vitest's thread; `undefined` when
 * the runtime refuses (the gate then goes on without).
 */
export function fullCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (typeof exposed === 'function') return exposed
  try {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as unknown
    return typeof gc === 'function' ? (gc as () => void) : undefined
  } catch {
    return undefined
  }
}
