import { describe, expect, it, vi } from 'vitest'
import { BodyGate, type Lend } from './body-gate.ts'

const settle = () => new Promise((done) => setImmediate(done))
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** Asks the gate and records when (and with what) the body was let in. */
function asking(gate: BodyGate) {
  const seen: { lend?: Lend; granted: boolean } = { granted: false }
  const ticket = gate.ask((lend) => {
    seen.granted = true
    seen.lend = lend
  })
  return Object.assign(seen, { ticket })
}

describe('the gate for large bodies', () => {
  it('lets in as many bodies as it has slots, and the next one when a slot is given back', async () => {
    const gate = new BodyGate({ slots: 2, largeFrom: 1024, maxWaitMs: 60_000 })
    const [first, second, third] = [asking(gate), asking(gate), asking(gate)]
    await settle()
    expect([first.granted, second.granted, third.granted]).toEqual([true, true, false])
    second.ticket.release(4096)
    await settle()
    expect(third.granted).toBe(true)
    first.ticket.release()
    third.ticket.release()
  })

  it('lends the buffer a body gave back to the next body, instead of a new one', async () => {
    const gate = new BodyGate({ slots: 1, largeFrom: 1024, maxWaitMs: 60_000 })
    const first = asking(gate)
    await settle()
    const buffer = first.lend?.(4096)
    first.ticket.release(4096)
    const second = asking(gate)
    await settle()
    expect(second.lend?.(4096)).toBe(buffer)
    second.ticket.release(4096)
    // A larger cap than the buffer kept: a buffer of its own size.
    const third = asking(gate)
    await settle()
    expect(third.lend?.(8192).length).toBe(8192)
    third.ticket.release()
  })

  it('lends the next body another buffer when one keeps the buffer it was lent', async () => {
    const gate = new BodyGate({ slots: 1, largeFrom: 1024, maxWaitMs: 60_000 })
    const first = asking(gate)
    await settle()
    const kept = first.lend?.(4096)
    first.ticket.keepBuffer()
    first.ticket.release()
    const second = asking(gate)
    await settle()
    expect(second.granted).toBe(true)
    expect(second.lend?.(4096)).not.toBe(kept)
    second.ticket.release(4096)
  })

  it('lets a body that waited too long go on without a slot, which it then cannot give to another', async () => {
    const gate = new BodyGate({ slots: 1, largeFrom: 1024, maxWaitMs: 50 })
    const holder = asking(gate)
    await settle()
    const late = asking(gate)
    await sleep(120)
    expect(late.granted).toBe(true)
    expect(late.lend).toBeUndefined()
    late.ticket.release(4096)
    // Its release freed nothing: the slot is still the holder's.
    const next = asking(gate)
    await settle()
    expect(next.granted).toBe(false)
    holder.ticket.release()
    await settle()
    expect(next.granted).toBe(true)
    next.ticket.release()
  })

  it('lets no more than maxOutside bodies out of the slots at once: the next waits on until one is let go', async () => {
    const gate = new BodyGate({ slots: 1, largeFrom: 1024, maxWaitMs: 30, maxOutside: 1 })
    const holder = asking(gate)
    await settle()
    const [first, second] = [asking(gate), asking(gate)]
    await sleep(100)
    expect([first.granted, first.lend]).toEqual([true, undefined])
    // The holder read nothing meanwhile, yet the second waits: one body is out of the slots already.
    expect(second.granted).toBe(false)
    first.ticket.release(4096)
    await sleep(100)
    expect([second.granted, second.lend]).toEqual([true, undefined])
    second.ticket.release()
    holder.ticket.release()
  })

  it('keeps a stalled holder in its slot while maxOutside bodies are out of the slots', async () => {
    const gate = new BodyGate({ slots: 1, largeFrom: 1024, maxWaitMs: 30, maxOutside: 1 })
    const holder = asking(gate)
    await settle()
    const late = asking(gate)
    await sleep(100)
    expect(late.granted).toBe(true)
    const queued = asking(gate)
    // Out of the slots is full: the holder keeps its slot and its buffer, and the queued body waits.
    expect(holder.ticket.keepBuffer()).toBe(false)
    await settle()
    expect(queued.granted).toBe(false)
    late.ticket.release()
    // Room again: the holder hands its slot on, to the body queued behind it.
    expect(holder.ticket.keepBuffer()).toBe(true)
    await settle()
    expect(queued.granted).toBe(true)
    expect(queued.lend).toBeTypeOf('function')
    holder.ticket.release()
    queued.ticket.release()
  })

  it('keeps a body waiting past its time while the holders read, and lets it go on once they stop', async () => {
    // Timers are driven by hand: the rule is about which wait saw bytes move, not about the machine's speed.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const gate = new BodyGate({ slots: 1, largeFrom: 1024, maxWaitMs: 50 })
      const holder = asking(gate)
      await settle()
      const late = asking(gate)
      // The holder reads more than largeFrom in every wait: busy, not stuck.
      for (let wait = 0; wait < 4; wait++) {
        holder.ticket.moved(2048)
        vi.advanceTimersByTime(50)
      }
      await settle()
      expect(late.granted).toBe(false)
      // Less than largeFrom in a whole wait (a body that trickles): the body goes on without a slot.
      holder.ticket.moved(512)
      vi.advanceTimersByTime(50)
      await settle()
      expect(late.granted).toBe(true)
      expect(late.lend).toBeUndefined()
      // What a body without a slot reads moves nothing through the slots.
      const next = asking(gate)
      late.ticket.moved(1 << 20)
      vi.advanceTimersByTime(50)
      await settle()
      expect(next.granted).toBe(true)
      expect(next.lend).toBeUndefined()
      for (const body of [holder, late, next]) body.ticket.release()
    } finally {
      vi.useRealTimers()
    }
  })

  it('never lets in a body that left the queue, and gives its place to the one behind it', async () => {
    const gate = new BodyGate({ slots: 1, largeFrom: 1024, maxWaitMs: 60_000 })
    const holder = asking(gate)
    const gone = asking(gate)
    const behind = asking(gate)
    gone.ticket.release()
    holder.ticket.release()
    await settle()
    expect(gone.granted).toBe(false)
    expect(behind.granted).toBe(true)
    // Released twice: the second does nothing (the slot is not handed out twice).
    behind.ticket.release()
    behind.ticket.release()
    const [a, b] = [asking(gate), asking(gate)]
    await settle()
    expect([a.granted, b.granted]).toEqual([true, false])
    a.ticket.release()
    b.ticket.release()
  })

  it('collects once enough large bodies were let go, after the body was judged', async () => {
    let collections = 0
    const order: string[] = []
    const gate = new BodyGate({
      slots: 1,
      largeFrom: 1024,
      maxWaitMs: 60_000,
      collectEvery: 10_000,
      collect: () => {
        collections++
        order.push('collect')
      },
    })
    for (let body = 0; body < 4; body++) {
      const reading = asking(gate)
      await settle()
      reading.ticket.release(4_000)
      // What the body was read for is judged in the promise reactions that follow its release.
      queueMicrotask(() => order.push(`judged ${body}`))
    }
    await settle()
    await settle()
    // 16,000 bytes let go: one collection (at the third body), after that body was judged.
    expect(collections).toBe(1)
    expect(order.indexOf('collect')).toBeGreaterThan(order.indexOf('judged 2'))
  })
})
