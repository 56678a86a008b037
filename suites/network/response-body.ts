// Reads a response body, decoded, under byte and chunk caps and the body gate, so no server exhausts memory.
import type { Readable, Transform } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { BodyGate, type Ticket } from './body-gate.ts'
import { fullCollection, youngCollection } from './full-collection.ts'
import { type DuplicateMember, JsonBodyScan } from './json-body-scan.ts'

/**
 * A response body read under two caps, held as one buffer that grows by doubling up to the byte cap: a body
 * sent in a million 1-byte chunks costs its bytes, not a million Buffer objects (each of which may pin the
 * 64 KiB socket read it was sliced from).
 */
class ResponseBody {
  private buffer: Buffer = Buffer.allocUnsafe(0)
  /** Bytes held. */
  length = 0
  /** Chunks the body came in, as they arrived from the socket (before any decoding). */
  chunks = 0

  private readonly maxBytes: number
  private readonly maxChunks: number

  constructor(maxBytes: number, maxChunks: number, expectedBytes: number | undefined) {
    this.maxBytes = maxBytes
    this.maxChunks = maxChunks
    // Sized once when the length is known: doubling leaves as much garbage as the body itself, which a
    // server that pads every answer turns into hundreds of megabytes between two collections.
    if (expectedBytes !== undefined && expectedBytes <= maxBytes)
      this.buffer = Buffer.allocUnsafe(expectedBytes)
  }

  /** Counts one chunk of framing; false once the body has come in more chunks than allowed. */
  countChunk(): boolean {
    this.chunks++
    return this.chunks <= this.maxChunks
  }

  /** Appends decoded bytes; false (and nothing kept beyond the cap) once the body is over its byte cap. */
  append(chunk: Buffer): boolean {
    const needed = this.length + chunk.length
    if (needed > this.maxBytes) {
      this.keep(chunk.subarray(0, Math.max(0, keptOfTooLarge - this.length)))
      return false
    }
    this.keep(chunk)
    return true
  }

  /** Goes on in `buffer` (lent by the gate, or its own once it gave the slot back): what is held is copied. */
  moveTo(buffer: Buffer): void {
    this.buffer.copy(buffer, 0, 0, this.length)
    this.buffer = buffer
  }

  /** Lets the buffer go (a lent one goes back to the gate, and is another body's from then on). */
  drop(): void {
    this.buffer = Buffer.allocUnsafe(0)
  }

  /** The body as text (UTF-8, replacement characters for broken sequences). */
  text(): string {
    return this.buffer.toString('utf8', 0, this.length)
  }

  /** The start of a body that went over a cap: enough for a report, never the whole. */
  start(): string {
    return this.buffer.toString('utf8', 0, Math.min(this.length, keptOfTooLarge))
  }

  private keep(chunk: Buffer): void {
    if (chunk.length === 0) return
    const needed = this.length + chunk.length
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(
        Math.min(Math.max(needed, this.buffer.length * 2, 4096), Math.max(this.maxBytes, keptOfTooLarge)),
      )
      this.buffer.copy(grown, 0, 0, this.length)
      this.buffer = grown
    }
    chunk.copy(this.buffer, this.length)
    this.length = needed
  }
}

/**
 * How many JSON values a body may hold (json-body-scan.ts): a list of a hundred pets holds some five
 * hundred. A body that holds more is over a cap, like one with too many bytes.
 */
const maxJsonValues = 65_536

// What V8 takes for a parsed JSON value, about: an empty object is some fifty bytes, a small integer eight.
const bytesPerValue = 64

/** What a report keeps of a body that went over a cap. */
const keptOfTooLarge = 64 * 1024

/**
 * How a body read under the caps ended: its text (with the first member name an object of it gives twice,
 * if one does), or why it stopped (with what was kept of it).
 */
export type BodyOutcome =
  | { ok: true; body: string; duplicateMember?: DuplicateMember }
  | { ok: false; kind: 'too-large' | 'closed'; body: string; message: string }

/** From this size on a body is large: it waits at the gate, and once judged its value keeps only what the contract declares. */
export const largeBodyBytes = 256 * 1024

/**
 * The process's gate for large bodies (body-gate.ts): two at a time past 256 KiB, which a list of a hundred
 * pets reaches only with names of some 2,500 characters each.
 */
const bodyGate = new BodyGate({
  slots: 2,
  largeFrom: largeBodyBytes,
  maxWaitMs: 1_000,
  // Four bodies of the 4 MiB cap: 16 MiB besides the slots' two, whatever the CPU leaves the run.
  maxOutside: 4,
  // Found on first use: a run whose bodies never reach the gate makes no new context for it.
  collect: () => {
    collection ??= fullCollection() ?? (() => {})
    collection()
  },
})
let collection: (() => void) | undefined

/**
 * After every 2 MiB of bodies read (decoded), a scavenge (full-collection.ts): each read off a socket, and
 * each piece a decoder yields, is a buffer of its own, dropped once copied into its body, and a server that
 * sends large bodies (and keeps them coming, or goes silent before their end, so that no body is let go)
 * left tens of megabytes of them to the collector. A plain run reads well under a megabyte of bodies.
 */
const scavengeEvery = 2 * 1024 * 1024
let readSinceScavenge = 0
let scavenge: (() => void) | undefined
function countRead(bytes: number): void {
  readSinceScavenge += bytes
  if (readSinceScavenge < scavengeEvery) return
  readSinceScavenge = 0
  setImmediate(() => {
    scavenge ??= youngCollection() ?? (() => {})
    scavenge()
  })
}

// A body that holds a slot and gets nothing for this long hands the slot on, and goes on in a buffer of its
// own: a server that stalls two large bodies would otherwise keep every other one waiting its full second.
const stallMs = 250

/** What the reader of a body needs of the request it belongs to. */
export interface BodyReading {
  /** Called once, with how the body ended. */
  done: (outcome: BodyOutcome) => void
  /** Stops the transfer, once a cap is passed. */
  abort: () => void
  /** The body waits for the gate (the suite's doing, not the server's): its deadline stops meanwhile. */
  pauseDeadline: () => void
  resumeDeadline: () => void
}

/**
 * The decompressor for a body's Content-Encoding: gunzip, inflate (zlib-wrapped, RFC 9110 §8.4.1.2) or
 * Brotli; none for any other (zstd, several in a row), which is judged as the bytes it came as, nor for a
 * response without a body (204, 304).
 */
function decompressorFor(status: number, contentEncoding: unknown): (() => Transform) | undefined {
  const coding = String(contentEncoding ?? '')
    .trim()
    .toLowerCase()
  if (status === 204 || status === 304) return undefined
  if (coding === 'gzip' || coding === 'x-gzip') return createGunzip
  if (coding === 'deflate') return createInflate
  if (coding === 'br') return createBrotliDecompress
  return undefined
}

/**
 * Reads a response body from `raw` (the bytes off the connection), decoded as its Content-Encoding says
 * (`decompressorFor`), under both caps, whatever client delivered it. The chunk cap counts `raw`: the
 * framing is what a server controls. The byte cap holds for the decoded body: a small compressed body can
 * decode to gigabytes. A body past `bodyGate.largeFrom` waits, paused, for a slot of the gate, and so does
 * a Brotli body before its decoder exists: a Brotli stream may ask for a 16 MiB window, which its decoder
 * allocates before it yields a byte.
 * Returns how to stop reading: the request calls it whenever it ends, however (its deadline, a closed
 * connection), and it gives back the slot, the buffer and the decompressor, which would otherwise go on
 * decoding a bomb into a buffer nobody reads.
 */
export function readBoundedBody(
  raw: Readable,
  caps: {
    maxBytes: number
    maxChunks: number
    status: number
    contentEncoding: string | undefined
    contentLength?: string
  },
  reading: BodyReading,
): () => void {
  const decompressor = decompressorFor(caps.status, caps.contentEncoding)
  const declared =
    decompressor === undefined && /^\d{1,10}$/.test(caps.contentLength ?? '')
      ? Number(caps.contentLength)
      : undefined
  const gated = caps.maxBytes > bodyGate.largeFrom
  const held = new ResponseBody(
    caps.maxBytes,
    caps.maxChunks,
    declared !== undefined && declared <= bodyGate.largeFrom ? declared : undefined,
  )
  let decoded = raw
  let ticket: Ticket | undefined
  let large = false
  /** Chunks that came while the body waits for a slot (the one that made it wait, at least). */
  let waiting: Buffer[] | undefined
  /** The stream ended while the body waited: a stream that had its end buffered ends even when paused. */
  let endedWhileWaiting = false
  let settled = false
  /** Read to its end: its text will be parsed, which makes as much garbage again. */
  let readWhole = false
  let received = 0
  const values = new JsonBodyScan()

  /** Set while the body holds a slot and its buffer: a body that stalls hands the slot on (`stalled`). */
  let stall: ReturnType<typeof setTimeout> | undefined
  const stalled = () => {
    // It goes on in the buffer it was lent, which is the cap's size: copied out, the copy and the buffer
    // given back both stayed in memory, the buffer idle until another large body came. The slot goes
    // back now, unless as many bodies as the gate allows are out of the slots already: then it keeps it,
    // and tries again after another stall. Its ticket is released once the body is let go.
    stall = ticket?.keepBuffer() === false ? setTimeout(stalled, stallMs) : undefined
  }
  const stop = () => {
    if (settled) return
    // Stopped from outside (the request's deadline, a closed connection): nothing more is taken.
    settled = true
    clearTimeout(stall)
    // What it leaves the collector: its bytes, twice when read whole (its text, then its parsed value,
    // each hold them), and `{}` is two bytes of text and some fifty of heap.
    const weight = (readWhole ? 2 : 1) * held.length + values.values * bytesPerValue
    if (ticket) ticket.release(weight)
    else bodyGate.letGo(weight)
    held.drop()
    if (decoded !== raw && !decoded.destroyed) decoded.destroy()
  }
  const settle = (outcome: BodyOutcome) => {
    if (settled) return
    stop()
    reading.done(outcome)
  }
  const overCap = (message: string) => {
    reading.abort()
    // Only the start is kept, for the report: the rest is what the cap is there to drop.
    settle({ ok: false, kind: 'too-large', body: held.start(), message })
  }
  /** Pauses the body until it holds a slot, then goes on in the slot's buffer. */
  const waitForSlot = (then: () => void) => {
    reading.pauseDeadline()
    ticket = bodyGate.ask((lend) => {
      large = true
      if (lend) {
        held.moveTo(lend(Math.max(caps.maxBytes, keptOfTooLarge)))
        stall = setTimeout(stalled, stallMs)
      }
      reading.resumeDeadline()
      then()
    })
  }
  const take = (chunk: Buffer): boolean => {
    if (waiting) {
      waiting.push(chunk)
      return true
    }
    // A length declared over the cap is a body over it: its first bytes are kept for the report, and the
    // rest is not fetched. Read to the cap, a server that declares 50 MB sent 4 MiB for every request.
    if (declared !== undefined && declared > caps.maxBytes) {
      held.append(chunk.subarray(0, keptOfTooLarge))
      overCap(`the body is more than ${caps.maxBytes} bytes (its Content-Length says ${declared})`)
      return false
    }
    const needed = held.length + chunk.length
    if (gated && !large && (needed > bodyGate.largeFrom || (declared ?? 0) > bodyGate.largeFrom)) {
      waiting = [chunk]
      decoded.pause()
      waitForSlot(() => {
        const arrived = waiting ?? []
        waiting = undefined
        for (const early of arrived) if (!take(early)) return
        if (endedWhileWaiting) finishBody()
        else decoded.resume()
      })
      return true
    }
    stall?.refresh()
    ticket?.moved(chunk.length)
    if (!held.append(chunk)) {
      overCap(`the body is more than ${caps.maxBytes} bytes${decompressor ? ' once decoded' : ''}`)
      return false
    }
    values.add(chunk)
    if (values.values <= maxJsonValues) return true
    overCap(`the body holds more than ${maxJsonValues} JSON values (commas outside strings)`)
    return false
  }
  const finishBody = () => {
    if (settled) return
    readWhole = true
    const body = held.text()
    const duplicateMember = values.duplicate
    settle(duplicateMember ? { ok: true, body, duplicateMember } : { ok: true, body })
  }
  const start = () => {
    raw.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (!held.countChunk()) overCap(`the body came in more than ${caps.maxChunks} chunks`)
    })
    if (decompressor) {
      decoded = raw.pipe(decompressor())
      decoded.on('error', (error) =>
        // No bytes at all is an empty body, whatever the header says; anything else is a broken one.
        settle(
          received === 0
            ? { ok: true, body: '' }
            : {
                ok: false,
                kind: 'closed',
                body: '',
                message: `the body could not be decoded as its Content-Encoding "${caps.contentEncoding}" says (${(error as Error).message})`,
              },
        ),
      )
    }
    decoded.on('data', (chunk: Buffer) => {
      countRead(chunk.length)
      if (!settled) take(chunk)
    })
    decoded.on('end', () => {
      if (waiting) endedWhileWaiting = true
      else finishBody()
    })
  }
  if (gated && decompressor === createBrotliDecompress) {
    raw.pause()
    waitForSlot(start)
  } else start()
  return stop
}

/** A body outcome as the request's outcome, with the response it belongs to. */
export function withBody<R extends { body: string }>(
  response: R,
  outcome: BodyOutcome,
): { ok: true; response: R } | { ok: false; kind: 'too-large' | 'closed'; response: R; message: string } {
  return outcome.ok
    ? {
        ok: true,
        response: {
          ...response,
          body: outcome.body,
          ...(outcome.duplicateMember ? { duplicateMember: outcome.duplicateMember } : {}),
        },
      }
    : {
        ok: false,
        kind: outcome.kind,
        response: { ...response, body: outcome.body },
        message: outcome.message,
      }
}

/** What an exchange keeps of a large body once it is judged (see `releaseJudgedBody`). */
const keptOfJudged = 4 * 1024

/**
 * Lets a judged exchange's body text go, keeping its start (for a report, which shows at most that) and
 * its length, once its value is parsed and kept beside it. A check keeps every exchange it made until it
 * ends, sixteen checks run at once, and a server can pad every answer to just under the byte cap: holding
 * each body's text would hold hundreds of megabytes.
 */
export function releaseJudgedBody(response: { body: string; bodyLength?: number }): void {
  if (response.body.length <= keptOfJudged) return
  response.bodyLength = response.bodyLength ?? response.body.length
  // A copy, not a slice: a slice of a V8 string keeps the whole string alive.
  response.body = Buffer.from(response.body.slice(0, keptOfJudged), 'utf8').toString('utf8')
}
