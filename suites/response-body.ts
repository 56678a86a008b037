/**
 * A response body read under two caps, held as one buffer that grows by doubling up to the byte cap: a body
 * sent in a million 1-byte chunks costs its bytes, not a million Buffer objects (each of which may pin the
 * 64 KiB socket read it was sliced from).
 */
export class ResponseBody {
  private buffer = Buffer.allocUnsafe(0)
  /** Bytes held. */
  length = 0
  /** Chunks the body came in, as they arrived from the socket (before any decoding). */
  chunks = 0

  private readonly maxBytes: number
  private readonly maxChunks: number

  constructor(maxBytes: number, maxChunks: number) {
    this.maxBytes = maxBytes
    this.maxChunks = maxChunks
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
export const keptOfTooLarge = 64 * 1024
