import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { ResponseBody } from './response-body.ts'

/** What bounds every request of a run, whatever the server does. */
export interface RequestLimits {
  /** One deadline per request, covering the connection, the headers and the whole body. */
  requestTimeoutMs: number
  /** Bodies are read up to this many bytes; a larger one is not kept. */
  maxResponseBytes: number
  /** The run's own deadline (epoch ms): no request outlives it. */
  runDeadline: number
  /** Bodies are read in at most this many chunks off the socket (default 65,536). */
  maxResponseChunks?: number
}

export interface Received {
  status: number
  headers: Record<string, string>
  body: string
}

/** Why a request got no complete response; `kind` decides who is at fault. */
export type RequestProblem =
  | { kind: 'too-large'; response: Received; message: string }
  | { kind: 'timeout' | 'closed'; message: string; response?: Received }
  | { kind: 'unreachable' | 'run-deadline'; message: string }

export type RequestOutcome = { ok: true; response: Received } | ({ ok: false } & RequestProblem)

// One pool per process: checks run concurrently against the same server. node:http rather than undici:
// it is already loaded by every Node process, where importing undici costs ~200 ms of each run's start,
// and it sends the path byte for byte.
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 16, keepAliveMsecs: 4_000 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 16, keepAliveMsecs: 4_000 }),
}

// Node's own default, written down so that the report can name it: a header block past it is refused.
const maxHeaderBytes = 16 * 1024

// A body of the byte cap in 64-byte pieces: no server that means to be read frames its body finer.
const defaultMaxChunks = 65_536

// Errors that mean no server answered at all: the target, not the server's behaviour, is the problem.
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

/**
 * Sends one request with a deadline covering headers and body, and reads the body up to a byte cap, so
 * that an endless, trickling or silent server costs at most `requestTimeoutMs` and `maxResponseBytes`.
 * Never throws: a request that got no complete answer is data saying why.
 * @example await boundedRequest('http://127.0.0.1:4010/v1/pets', { method: 'GET', headers: {} }, limits)
 */
export async function boundedRequest(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  limits: RequestLimits,
): Promise<RequestOutcome> {
  const first = await attempt(url, init, limits)
  // A kept-alive connection the server closed while idle fails the next request sent on it before any
  // byte of an answer (Node's docs: check `reusedSocket`). That is the connection's fault, not the
  // server's behaviour: the request is sent once more, on a new connection.
  if (!first.ok && first.kind === 'closed' && first.staleConnection) return attempt(url, init, limits)
  return first
}

function attempt(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  limits: RequestLimits,
): Promise<RequestOutcome & { staleConnection?: boolean }> {
  const left = limits.runDeadline - Date.now()
  if (left <= 0)
    return Promise.resolve({ ok: false, kind: 'run-deadline', message: 'the run’s deadline has passed' })
  const timeout = Math.min(limits.requestTimeoutMs, left)
  const ranOut = timeout < limits.requestTimeoutMs
  const { origin, rawPath } = splitUrl(url)
  const target = new URL(origin)
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8')
  const maxChunks = limits.maxResponseChunks ?? defaultMaxChunks
  return new Promise((resolve) => {
    let response: Received | undefined
    let settled = false
    const finish = (outcome: RequestOutcome & { staleConnection?: boolean }) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(outcome)
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const request = send(
      {
        agent: agents[target.protocol as 'http:' | 'https:'],
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        method: init.method,
        maxHeaderSize: maxHeaderBytes,
        // Sent byte for byte: the path-spelling checks must send `/./`, `%2e` and the like unnormalised.
        path: rawPath,
        headers: {
          'accept-encoding': acceptEncoding,
          ...init.headers,
          ...(body ? { 'content-length': String(body.length) } : {}),
        },
      },
      (answer: IncomingMessage) => {
        response = { status: answer.statusCode ?? 0, headers: flattenHeaders(answer.headers), body: '' }
        const held = new ResponseBody(limits.maxResponseBytes, maxChunks)
        // The cap holds for the decoded body: a small compressed body can decode to gigabytes (a bomb).
        const decoded = decoderFor(answer)
        const overCap = (message: string) => {
          request.destroy()
          if (decoded !== answer) decoded.destroy()
          // Only the start is kept, for the report: the rest is what the cap is there to drop.
          finish({
            ok: false,
            kind: 'too-large',
            response: { ...(response as Received), body: held.start() },
            message,
          })
        }
        let received = 0
        // Chunks are counted as they come off the socket: the framing, not the decoder's output, is what a
        // server controls.
        answer.on('data', (chunk: Buffer) => {
          received += chunk.length
          if (!held.countChunk()) overCap(`the body came in more than ${maxChunks} chunks`)
        })
        decoded.on('data', (chunk: Buffer) => {
          if (!held.append(chunk))
            overCap(
              `the body is more than ${limits.maxResponseBytes} bytes${decoded === answer ? '' : ' once decoded'}`,
            )
        })
        decoded.on('end', () =>
          finish({ ok: true, response: { ...(response as Received), body: held.text() } }),
        )
        if (decoded !== answer)
          decoded.on('error', (error) =>
            // No bytes at all is an empty body, whatever the header says; anything else is a broken one.
            finish(
              received === 0
                ? { ok: true, response: response as Received }
                : {
                    ok: false,
                    kind: 'closed',
                    response: response as Received,
                    message: `the body could not be decoded as its Content-Encoding "${answer.headers['content-encoding']}" says (${(error as Error).message})`,
                  },
            ),
          )
        answer.on('error', (error) => fail(error))
        // A connection closed mid-body ends the response without 'end'.
        answer.on('close', () => {
          if (!answer.complete) fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
        })
      },
    )
    const fail = (error: unknown) => {
      const code = errorCode(error)
      if (response === undefined && unreachableCodes.has(code))
        return finish({ ok: false, kind: 'unreachable', message: `cannot connect (${code})` })
      if (response === undefined && code === 'HPE_HEADER_OVERFLOW')
        return finish({
          ok: false,
          kind: 'closed',
          message: `the response's header block is more than ${maxHeaderBytes} bytes (${code})`,
        })
      if (response === undefined && isTlsError(code, error))
        return finish({
          ok: false,
          kind: 'unreachable',
          message: `TLS failed (${code || (error as Error).message})`,
        })
      finish({
        ok: false,
        kind: 'closed',
        message: `the connection closed ${response ? 'mid-body' : 'before a response'} (${code || (error as Error).message})`,
        ...(response
          ? { response }
          : { staleConnection: request.reusedSocket && /ECONNRESET|EPIPE/.test(code) }),
      })
    }
    // One deadline for the connection, the headers and the whole body.
    const timer = setTimeout(() => {
      const connected = request.socket !== null && request.socket !== undefined && !request.socket.connecting
      request.destroy()
      if (ranOut)
        return finish({
          ok: false,
          kind: 'run-deadline',
          message: 'the run’s deadline passed while waiting for the response',
        })
      if (!connected)
        return finish({
          ok: false,
          kind: 'unreachable',
          message: `cannot connect within ${limits.requestTimeoutMs} ms`,
        })
      finish({
        ok: false,
        kind: 'timeout',
        message: `slower than ${limits.requestTimeoutMs / 1000} s: no complete response within ${limits.requestTimeoutMs} ms (${response ? 'the body did not finish' : 'no headers'})`,
        ...(response ? { response } : {}),
      })
    }, timeout)
    request.on('error', fail)
    request.end(body)
  })
}

// What a browser or curl --compressed asks for: servers that compress must be judged on what they send then.
const acceptEncoding = 'gzip, deflate, br'

/**
 * The response body as a stream of its decoded bytes: gunzipped, inflated (zlib-wrapped, RFC 9110
 * §8.4.1.2) or Brotli-decoded as its Content-Encoding says, else the bytes as they came. An encoding the
 * suite did not ask for (zstd, several in a row) is passed through as it came, so the body is judged as
 * what it is. A response without a body (204, 304) has nothing to decode.
 */
function decoderFor(answer: IncomingMessage): Readable {
  const coding = String(answer.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()
  if (answer.statusCode === 204 || answer.statusCode === 304) return answer
  if (coding === 'gzip' || coding === 'x-gzip') return answer.pipe(createGunzip())
  if (coding === 'deflate') return answer.pipe(createInflate())
  if (coding === 'br') return answer.pipe(createBrotliDecompress())
  return answer
}

/** The origin and the path exactly as written (no dot-segment or percent-encoding normalisation). */
function splitUrl(url: string): { origin: string; rawPath: string } {
  const origin = new URL(url).origin
  const afterScheme = url.indexOf('//') + 2
  const slash = url.indexOf('/', afterScheme)
  return { origin, rawPath: slash === -1 ? '/' : url.slice(slash) }
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : String(value ?? ''),
    ]),
  )
}

function errorCode(error: unknown): string {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } }
  return String(code ?? cause?.code ?? '')
}

function isTlsError(code: string, error: unknown): boolean {
  return (
    /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code) ||
    code === 'EPROTO' ||
    /SSL|TLS|certificate/i.test((error as Error)?.message ?? '')
  )
}
