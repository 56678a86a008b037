import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { type BodyOutcome, readBoundedBody } from './response-body.ts'

/** Reads `stream` as a request would, with a 4 MiB cap, and resolves with how the body ended. */
function read(stream: PassThrough): Promise<BodyOutcome> {
  return new Promise((done) => {
    readBoundedBody(
      stream,
      { maxBytes: 4 * 1024 * 1024, maxChunks: 65_536, status: 200, contentEncoding: undefined },
      { done, abort: () => stream.destroy(), pauseDeadline: () => {}, resumeDeadline: () => {} },
    )
  })
}

describe('reading a body under its caps', () => {
  it('reads a large body whole when its end was already buffered as it waited for the gate', async () => {
    // Five 64 KiB chunks and the end, all buffered before the reader starts: the fifth crosses 256 KiB
    // and waits for a slot, while the stream has its end ready to emit.
    const stream = new PassThrough()
    for (let chunk = 0; chunk < 5; chunk++) stream.write(Buffer.alloc(64 * 1024, 0x61 + chunk))
    stream.end()
    const outcome = await read(stream)
    expect(outcome.ok).toBe(true)
    expect(outcome.body.length).toBe(5 * 64 * 1024)
    expect(outcome.body.endsWith('e'.repeat(64 * 1024))).toBe(true)
  })
})
