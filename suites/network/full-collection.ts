// A handle on V8's full GC for the body gate, got at run time: vitest's thread cannot be given --expose-gc.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * V8's full garbage collection, for the one place that knows a burst of garbage has just ended: a large
 * body read, decoded, parsed and let go (body-gate.ts). V8 sizes its heap by how much survived the last
 * collection, not by how fast large strings die, and let sixteen 4 MiB answers' worth of text and values
 * pile up (a 500 MB run) before it collected any. Node exposes `gc` only under `--expose-gc`, which the
 * launcher cannot pass to vitest's thread; the flag set at run time applies to contexts made after it.
 * `undefined` when the runtime refuses (the gate then goes on without).
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
