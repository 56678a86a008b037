// The limits every request runs under and its outcome as data, with the problems both clients report alike.
import { maxHeaderBytes } from './http-message.ts'
import type { NetworkOptions } from './network-options.ts'
import type { Received } from './received.ts'

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
  /** Rate limit, proxy, TLS material and extra headers (network-options.ts). */
  network?: NetworkOptions
}

/** A request as the suite means it; `declares429` when the operation declares 429 itself. */
export interface RequestInit {
  method: string
  headers: Record<string, string>
  body?: string
  /** Headers the suite sends by default that this request leaves out, as some clients send none (`accept-encoding`). */
  leaveOut?: readonly string[]
  /** The operation declares 429: such an answer is the contract's, judged, not waited out. */
  declares429?: boolean
}

/** Why a request got no complete response; `kind` decides who is at fault. */
type RequestProblem =
  | { kind: 'too-large'; response: Received; message: string }
  | { kind: 'timeout' | 'closed'; message: string; response?: Received }
  | { kind: 'unreachable' | 'run-deadline'; message: string }
  /** Throttled beyond the budget (request-pacing.ts): staging's limit, not the server's verdict. */
  | { kind: 'throttled'; message: string }

export type RequestOutcome = { ok: true; response: Received } | ({ ok: false } & RequestProblem)

// Errors that mean no server answered at all: the target, not the server's behaviour, is the problem.
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])

/**
 * A request that ran out of time, whichever client sent it: the run's deadline (not the server's fault),
 * or its own, saying what came of the response.
 */
export function deadlineProblem(
  ranOut: boolean,
  requestTimeoutMs: number,
  response: Received | undefined,
): RequestOutcome {
  if (ranOut)
    return {
      ok: false,
      kind: 'run-deadline',
      message: 'the run’s deadline passed while waiting for the response',
    }
  return {
    ok: false,
    kind: 'timeout',
    message: `slower than ${requestTimeoutMs / 1000} s: no complete response within ${requestTimeoutMs} ms (${response ? 'the body did not finish' : 'no headers'})`,
    ...(response ? { response } : {}),
  }
}

// Each client's code for a header block beyond maxHeaderBytes: node:http's, undici's.
const headerOverflowCodes = new Set(['HPE_HEADER_OVERFLOW', 'UND_ERR_HEADERS_OVERFLOW'])

/**
 * A request whose connection failed, whichever client sent it: unreachable before a response (no
 * connection, a proxy that refused, TLS refused), else closed, saying whether mid-body.
 */
export function connectionProblem(
  error: unknown,
  response: Received | undefined,
  via: 'direct' | 'proxy' = 'direct',
): Extract<RequestOutcome, { ok: false }> {
  const code = errorCode(error)
  const message = (error as Error)?.message ?? String(error)
  if (response === undefined) {
    if (unreachableCodes.has(code) || code === 'UND_ERR_CONNECT_TIMEOUT')
      return { ok: false, kind: 'unreachable', message: `cannot connect (${code})` }
    // The proxy refused the tunnel or the request (a host it cannot resolve, credentials it refuses).
    if (via === 'proxy' && /proxy/i.test(message))
      return { ok: false, kind: 'unreachable', message: `the proxy refused: ${message}` }
    if (headerOverflowCodes.has(code))
      return {
        ok: false,
        kind: 'closed',
        message: `the response's header block is more than ${maxHeaderBytes} bytes (${code})`,
      }
    if (isTlsError(code, error))
      return { ok: false, kind: 'unreachable', message: `TLS failed (${code || message})` }
  }
  return {
    ok: false,
    kind: 'closed',
    message: `the connection closed ${response ? 'mid-body' : 'before a response'} (${code || message})`,
    ...(response ? { response } : {}),
  }
}

/** The error's code, or its cause's (undici wraps the socket's error). */
export function errorCode(error: unknown): string {
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
