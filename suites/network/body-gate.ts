// Limits how many response bodies may grow large at once, lending each a reused buffer, to bound memory.
/** What a body is told once it may grow large: a buffer of the cap lent by its slot, or none when it waited too long. */
export type Lend = ((bytes: number) => Buffer) | undefined

/** A body's place at the gate. */
export interface Ticket {
  /**
   * Gives the slot back, or leaves the queue, whichever applies; `bytes` is how large the body grew (for
   * the pacing of collections). May be called any number of times, and must be once the body is read or
   * given up.
   */
  release(bytes?: number): void
  /**
   * Counts bytes a body read while it holds a slot: a body waits on past `maxWaitMs` while the holders
   * move (`BodyGate.ask`). Ignored unless the ticket holds a slot.
   */
  moved(bytes: number): void
  /**
   * Gives the slot back but keeps the buffer it lent, which the body goes on in (it stalled): the next body
   * is lent another. False, and the body keeps its slot, while `maxOutside` bodies are already out of the
   * slots. The ticket is released as usual once the body is read or given up.
   */
  keepBuffer(): boolean
}

/**
 * How many response bodies may grow large at once in this process (docs/decisions/gate-for-large-bodies.md).
 * A body grows up to `largeFrom` bytes freely; past that it waits for one of `slots`, and for the buffer of
 * the cap that each slot lends, used again body after body. One that waited `maxWaitMs` goes on without a
 * slot, unless the holders read at least `largeFrom` bytes meanwhile: then the slots are busy, not stuck,
 * and it waits another `maxWaitMs`. Without that, on a loaded machine, bodies that only queued behind busy
 * holders went on by the dozen, each with a cap-sized buffer, and a run with a value near the cap in every
 * answer reached 250 MB in its own process. The reader of a body that stalls gives its slot back early
 * (response-body.ts). At most `maxOutside` bodies are out of the slots at once, stalled or let on.
 * Waiting is the suite's own doing: whoever reads the body stops the request's deadline meanwhile.
 */
export class BodyGate {
  readonly slots: number
  readonly largeFrom: number
  readonly maxWaitMs: number
  /** How many bodies may be large outside the slots at once: stalled ones in their buffers, waiters let on. */
  readonly maxOutside: number
  /** Bodies large outside the slots now. */
  private outside = 0
  /** Buffers given back, at most one per slot: lent again rather than allocated (and freed) per body. */
  private readonly free: Buffer[] = []
  private available: number
  private readonly queue: Array<() => void> = []
  /** Collects once this many bytes of bodies were let go since the last time, if `collect` is set. */
  private readonly collectEvery: number
  private readonly collect: (() => void) | undefined
  private sinceCollected = 0
  /** Bytes read by bodies holding a slot, ever: how a waiter tells busy slots from stuck ones. */
  private movedThroughSlots = 0

  constructor(options: {
    slots: number
    largeFrom: number
    maxWaitMs: number
    maxOutside?: number
    collect?: (() => void) | undefined
    collectEvery?: number
  }) {
    this.slots = options.slots
    this.largeFrom = options.largeFrom
    this.maxWaitMs = options.maxWaitMs
    this.maxOutside = options.maxOutside ?? Number.POSITIVE_INFINITY
    this.available = options.slots
    this.collect = options.collect
    this.collectEvery = options.collectEvery ?? 8 * 1024 * 1024
  }

  /**
   * A ticket for a slot: `granted` runs once the body holds one, or once it waited `maxWaitMs` (then
   * without a buffer to borrow); never before `ask` has returned (a free slot is granted in a microtask),
   * and never after the ticket's release.
   */
  ask(granted: (lend: Lend) => void): Ticket {
    let state: 'waiting' | 'holding' | 'without' | 'done' = 'waiting'
    let lent: Buffer | undefined
    let waited: ReturnType<typeof setTimeout> | undefined
    const lend = (bytes: number) => {
      const kept = this.free.pop()
      lent = kept !== undefined && kept.length >= bytes ? kept : Buffer.allocUnsafe(bytes)
      return lent
    }
    const enter = () => {
      clearTimeout(waited)
      state = 'holding'
      queueMicrotask(() => {
        if (state === 'holding') granted(lend)
      })
    }
    if (this.available > 0) {
      this.available--
      enter()
    } else {
      this.queue.push(enter)
      let movedWhenAsked = this.movedThroughSlots
      const waitedLong = () => {
        if (state !== 'waiting') return
        // Busy holders, or as many bodies out of the slots as may be: it waits on. A body out of the slots
        // grows to the cap in a buffer of its own; on a loaded CPU the holders read slowly, and bodies let
        // on by the dozen took a run against megabyte names to 297 MB beside two busy processes (237 MB
        // with the bound).
        if (this.movedThroughSlots - movedWhenAsked >= this.largeFrom || this.outside >= this.maxOutside) {
          movedWhenAsked = this.movedThroughSlots
          waited = setTimeout(waitedLong, this.maxWaitMs)
          return
        }
        this.queue.splice(this.queue.indexOf(enter), 1)
        state = 'without'
        this.outside++
        granted(undefined)
      }
      waited = setTimeout(waitedLong, this.maxWaitMs)
    }
    return {
      moved: (bytes) => {
        if (state === 'holding') this.movedThroughSlots += bytes
      },
      keepBuffer: () => {
        if (state !== 'holding' || this.outside >= this.maxOutside) return false
        lent = undefined
        this.handOn()
        state = 'without'
        this.outside++
        return true
      },
      release: (bytes = 0) => {
        clearTimeout(waited)
        if (state === 'waiting') this.queue.splice(this.queue.indexOf(enter), 1)
        if (state === 'holding') {
          if (lent) this.free.push(lent)
          this.handOn()
        }
        if (state === 'without') this.outside--
        if (state === 'holding' || state === 'without') this.paceCollection(bytes)
        state = 'done'
      },
    }
  }

  /** A slot is free: the first body waiting gets it. */
  private handOn(): void {
    const next = this.queue.shift()
    if (next) next()
    else this.available++
  }

  /**
   * Counts a body that never needed a slot, let go: small in bytes, it may still parse to many objects
   * (`weight` is what the reader reckons its text and value take).
   */
  letGo(weight: number): void {
    this.paceCollection(weight)
  }

  /**
   * Counts a body let go, and once enough were, collects: after the tasks already queued, which judge what
   * the body was read for and drop its text and value.
   */
  private paceCollection(bytes: number): void {
    const { collect } = this
    if (collect === undefined) return
    this.sinceCollected += bytes
    if (this.sinceCollected < this.collectEvery) return
    this.sinceCollected = 0
    setImmediate(collect)
  }
}
