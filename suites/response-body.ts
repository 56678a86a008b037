import type { Readable } from 'node:stream'

/**
 * A response body read under two caps, held as one buffer that grows by doubling up to the byte cap: a body
 * sent in a million 1-byte chunks costs its bytes, not a million Buffer objects (each of which may pin the
 * 64 KiB socket read it was sliced from).
 */
class ResponseBody {
  private buffer = Buffer.allocUnsafe(0)
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

/** What a report keeps of a body that went over a cap. */
const keptOfTooLarge = 64 * 1024

/** How a body read under the caps ended: its text, or why it stopped (with what was kept of it). */
export type BodyOutcome =
  | { ok: true; body: string }
  | { ok: false; kind: 'too-large' | 'closed'; body: string; message: string }

/**
 * Reads a response body from `raw` (the bytes off the connection) through `decoded` (the same stream, or
 * its decompressor), under both caps, whatever client delivered it. The chunk cap counts `raw`: the
 * framing is what a server controls. The byte cap holds for the decoded body: a small compressed body can
 * decode to gigabytes. `abort` stops the transfer once a cap is passed.
 */
export function readBoundedBody(
  raw: Readable,
  decoded: Readable,
  caps: { maxBytes: number; maxChunks: number; contentEncoding: string | undefined; contentLength?: string },
  done: (outcome: BodyOutcome) => void,
  abort: () => void,
): void {
  const declared =
    decoded === raw && /^\d{1,10}$/.test(caps.contentLength ?? '') ? Number(caps.contentLength) : undefined
  const held = new ResponseBody(caps.maxBytes, caps.maxChunks, declared)
  const overCap = (message: string) => {
    abort()
    if (decoded !== raw) decoded.destroy()
    // Only the start is kept, for the report: the rest is what the cap is there to drop.
    done({ ok: false, kind: 'too-large', body: held.start(), message })
  }
  let received = 0
  raw.on('data', (chunk: Buffer) => {
    received += chunk.length
    if (!held.countChunk()) overCap(`the body came in more than ${caps.maxChunks} chunks`)
  })
  decoded.on('data', (chunk: Buffer) => {
    if (!held.append(chunk))
      overCap(`the body is more than ${caps.maxBytes} bytes${decoded === raw ? '' : ' once decoded'}`)
  })
  decoded.on('end', () => done({ ok: true, body: held.text() }))
  if (decoded !== raw)
    decoded.on('error', (error) =>
      // No bytes at all is an empty body, whatever the header says; anything else is a broken one.
      done(
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

/** A body outcome as the request's outcome, with the response it belongs to. */
export function withBody<R extends { body: string }>(
  response: R,
  outcome: BodyOutcome,
): { ok: true; response: R } | { ok: false; kind: 'too-large' | 'closed'; response: R; message: string } {
  return outcome.ok
    ? { ok: true, response: { ...response, body: outcome.body } }
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
