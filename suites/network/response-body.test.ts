import { PassThrough } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Received } from './received.ts'
import { type BodyOutcome, readBoundedBody, withBody } from './response-body.ts'

/**
 * Reads `stream` as a request would, with a 4 MiB cap: how the body ended, how to stop reading it, and
 * when its deadline was paused and resumed (it waited for the gate).
 */
function read(stream: PassThrough, contentEncoding?: string, contentLength?: string) {
  const waited: { pausedAt?: number; resumedAt?: number } = {}
  let stop = () => {}
  const outcome = new Promise<BodyOutcome>((done) => {
    stop = readBoundedBody(
      stream,
      {
        maxBytes: 4 * 1024 * 1024,
        maxChunks: 65_536,
        status: 200,
        contentEncoding,
        ...(contentLength === undefined ? {} : { contentLength }),
      },
      {
        done,
        abort: () => stream.destroy(),
        pauseDeadline: () => {
          waited.pausedAt = performance.now()
        },
        resumeDeadline: () => {
          waited.resumedAt = performance.now()
        },
      },
    )
  })
  return { outcome, stop, waited }
}

const unread: Received = { status: 200, headers: {}, body: '' }

const kib = (size: number, byte = 0x61) => Buffer.alloc(size * 1024, byte)

describe('reading a body under its caps', () => {
  it('stops at the first bytes of a body whose Content-Length is over the cap, keeping them for the report', async () => {
    const stream = new PassThrough()
    stream.write(kib(64, 0x20))
    const { outcome } = read(stream, undefined, String(50 * 1024 * 1024))
    const body = await outcome
    expect(body).toMatchObject({ ok: false, kind: 'too-large' })
    expect(body.ok || body.message).toBe(
      'the body is more than 4194304 bytes (its Content-Length says 52428800)',
    )
    expect(body.body).toBe(' '.repeat(64 * 1024))
    // Nothing more is asked of the connection: the reader destroyed it on the first chunk.
    expect(stream.destroyed).toBe(true)
  })

  it('reads a body whose Content-Length is at the cap to its end', async () => {
    const stream = new PassThrough()
    stream.end(kib(4 * 1024, 0x20))
    const { outcome } = read(stream, undefined, String(4 * 1024 * 1024))
    expect(await outcome).toMatchObject({ ok: true })
  })

  it('reads a large body whole when its end was already buffered as it waited for the gate', async () => {
    // Five 64 KiB chunks and the end, all buffered before the reader starts: the fifth crosses 256 KiB
    // and waits for a slot, while the stream has its end ready to emit.
    const stream = new PassThrough()
    for (let chunk = 0; chunk < 5; chunk++) stream.write(kib(64, 0x61 + chunk))
    stream.end()
    const { outcome } = await read(stream)
    const body = await outcome
    expect(body.ok).toBe(true)
    expect(body.body.length).toBe(5 * 64 * 1024)
    expect(body.body.endsWith('e'.repeat(64 * 1024))).toBe(true)
  })

  it('hands a slot on when the body holding it stalls, before a waiting body’s second is up', async () => {
    // Two large bodies take both slots, then nothing more comes of them.
    const stalling = [new PassThrough(), new PassThrough()]
    const holders = stalling.map((stream) => {
      stream.write(kib(300))
      return read(stream)
    })
    await new Promise((done) => setTimeout(done, 50))
    const stream = new PassThrough()
    stream.end(kib(300, 0x62))
    const waiting = read(stream)
    const body = await waiting.outcome
    expect(body.ok && body.body.length).toBe(300 * 1024)
    // It waited, and was let in by a stalled holder (at 250 ms), not by its own second at the gate.
    const { pausedAt = 0, resumedAt = Number.POSITIVE_INFINITY } = waiting.waited
    expect(resumedAt - pausedAt).toBeLessThan(900)
    // The stalled bodies go on in buffers of their own, and still read whole.
    for (const stream of stalling) stream.end(kib(10))
    for (const holder of holders)
      expect(((await holder.outcome) as { body: string }).body.length).toBe(310 * 1024)
  })
})

describe('the cap on JSON values', () => {
  it('stops a body of more JSON values than the cap, saying so, whatever its bytes', async () => {
    // 140 KB of `{}`: far under the byte cap, 70,000 objects once parsed.
    const stream = new PassThrough()
    stream.end(`[${Array(70_000).fill('{}').join(',')}]`)
    const outcome = await read(stream).outcome
    expect(outcome).toMatchObject({ ok: false, kind: 'too-large' })
    expect(outcome.ok ? '' : outcome.message).toMatch(/more than 65536 JSON values/)
  })

  it('reads a body of many values within the cap', async () => {
    const stream = new PassThrough()
    stream.end(`[${Array(60_000).fill('1').join(',')}]`)
    const outcome = await read(stream).outcome
    expect(outcome.ok).toBe(true)
  })
})

describe('member names given twice', () => {
  it('carries the first one onto the response, found in the decoded body as it came', async () => {
    const text = '[{"id":1,"name":"a"},{"id":2,"name":"b","status":"SoldPet","status":"sold"}]'
    const stream = new PassThrough()
    // Compressed, in 3-byte pieces: the scan reads the decoded bytes, in whatever pieces they decode to.
    const compressed = gzipSync(text)
    for (let at = 0; at < compressed.length; at += 3) stream.write(compressed.subarray(at, at + 3))
    stream.end()
    const outcome = await read(stream, 'gzip').outcome
    expect(outcome).toEqual({ ok: true, body: text, duplicateMember: { name: 'status', at: '/1/status' } })
    const answered = withBody(unread, outcome)
    expect(answered.response.duplicateMember).toEqual({ name: 'status', at: '/1/status' })
  })

  it('adds nothing to a body whose objects name each member once', async () => {
    const stream = new PassThrough()
    stream.end('[{"id":1,"name":"a"},{"id":2,"name":"b"}]')
    const outcome = await read(stream).outcome
    expect(outcome).toEqual({ ok: true, body: '[{"id":1,"name":"a"},{"id":2,"name":"b"}]' })
    expect('duplicateMember' in withBody(unread, outcome).response).toBe(false)
  })
})
