// The client for runs through a proxy, on undici, loaded only then; it keeps the direct client's bounds.
import type { Dispatcher } from 'undici'
import { connectionsPerOrigin } from './connections-per-origin.ts'
import { defaultMaxChunks, flattenHeaders, maxHeaderBytes, splitUrl, tlsOptions } from './http-message.ts'
import type { NetworkOptions } from './network-options.ts'
import { outgoingHeaders } from './outgoing-headers.ts'
import type { Received } from './received.ts'
import { RequestDeadline } from './request-deadline.ts'
import {
  connectionProblem,
  deadlineProblem,
  type RequestInit,
  type RequestLimits,
  type RequestOutcome,
} from './request-outcome.ts'
import { readBoundedBody, withBody } from './response-body.ts'

export type ProxiedSend = (url: string, init: RequestInit, limits: RequestLimits) => Promise<RequestOutcome>

/**
 * Requests through a proxy, on undici's EnvHttpProxyAgent: HTTP_PROXY / HTTPS_PROXY / NO_PROXY in either
 * case (NO_PROXY suffixes, ports, `*`), or `--proxy URL` for both schemes with NO_PROXY still honoured, as
 * curl does; CONNECT for https targets, and Basic credentials taken from the proxy's URL. Loaded only when a
 * proxy is in play: importing undici costs ~200 ms of a run's start (measured here: 200 ms on Node 20).
 * Every bound of the direct path holds: one deadline over connection, headers and body, the byte and chunk
 * caps on the decoded body, the header-block cap, the path sent byte for byte.
 */
export async function proxiedSender(network: NetworkOptions | undefined): Promise<ProxiedSend> {
  const { EnvHttpProxyAgent } = await import('undici')
  const tls = tlsOptions(network)
  const dispatcher: Dispatcher = new EnvHttpProxyAgent({
    // An empty variable is no proxy, as curl reads it (undici would take an empty lowercase one over the
    // upper-case one).
    httpProxy: network?.proxy || process.env.http_proxy || process.env.HTTP_PROXY || '',
    httpsProxy: network?.proxy || process.env.https_proxy || process.env.HTTPS_PROXY || '',
    noProxy: process.env.no_proxy || process.env.NO_PROXY || '',
    connections,
    keepAliveTimeout: 4_000,
    maxHeaderSize: maxHeaderBytes,
    // The suite's own deadline governs (below); undici's would only race it.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: tls,
    requestTls: tls,
  })
  const slots = new Slots(connections)
  return async (url, init, limits) => {
    const release = await slots.take(limits.runDeadline)
    if (!release)
      return {
        ok: false,
        kind: 'run-deadline',
        message: 'the run’s deadline passed while waiting for a connection',
      }
    try {
      return await send(dispatcher, url, init, limits)
    } finally {
      release()
    }
  }
}

// undici queues what its pool has no connection for, out of sight, and the per-request deadline would count
// that wait: the suite's own concurrency, not the server's time. At most as many requests as connections
// are handed to it, so the deadline starts with the connection, as on the direct path (bounded-request.ts).
const connections = connectionsPerOrigin

/** At most `size` holders at once; the others wait in order, until a deadline (epoch ms). */
class Slots {
  private free: number
  private readonly waiting: (() => void)[] = []

  constructor(size: number) {
    this.free = size
  }

  /** Resolves to the release of a slot, or to undefined once `deadline` passes first. */
  take(deadline: number): Promise<(() => void) | undefined> {
    if (this.free > 0) {
      this.free--
      return Promise.resolve(this.releaser())
    }
    return new Promise((resolve) => {
      const granted = () => {
        clearTimeout(timer)
        resolve(this.releaser())
      }
      const timer = setTimeout(
        () => {
          this.waiting.splice(this.waiting.indexOf(granted), 1)
          resolve(undefined)
        },
        Math.max(0, deadline - Date.now()),
      )
      this.waiting.push(granted)
    })
  }

  private releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiting.shift()
      if (next) next()
      else this.free++
    }
  }
}

async function send(
  dispatcher: Dispatcher,
  url: string,
  init: RequestInit,
  limits: RequestLimits,
): Promise<RequestOutcome> {
  if (limits.runDeadline - Date.now() <= 0)
    return { ok: false, kind: 'run-deadline', message: 'the run’s deadline has passed' }
  const maxChunks = limits.maxResponseChunks ?? defaultMaxChunks
  const { target, rawPath } = splitUrl(url)
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8')
  const controller = new AbortController()
  let response: Received | undefined
  let settled = false
  let stopBody: (() => void) | undefined
  return new Promise<RequestOutcome>((resolve) => {
    const finish = (outcome: RequestOutcome) => {
      if (settled) return
      settled = true
      deadline.clear()
      controller.abort()
      stopBody?.()
      resolve(outcome)
    }
    // Stopped while the body waits for the gate (the suite's doing), not the run's deadline.
    const deadline = new RequestDeadline(limits.requestTimeoutMs, limits.runDeadline, (ranOut) =>
      finish(deadlineProblem(ranOut, limits.requestTimeoutMs, response)),
    )
    deadline.start()
    const pauseDeadline = () => {
      if (!settled) deadline.pause()
    }
    const resumeDeadline = () => {
      if (!settled) deadline.resume()
    }
    const fail = (error: unknown) => finish(connectionProblem(error, response, 'proxy'))
    dispatcher
      .request({
        origin: target.origin,
        // Sent byte for byte: the path-spelling checks must send `/./`, `%2e` and the like unnormalised.
        path: rawPath,
        method: init.method as Dispatcher.HttpMethod,
        headers: outgoingHeaders(init.headers, init.leaveOut),
        ...(body ? { body } : {}),
        signal: controller.signal,
      })
      .then((answer) => {
        if (settled) return void answer.body.destroy()
        const headers = flattenHeaders(answer.headers)
        response = { status: answer.statusCode, headers, body: '' }
        const raw = answer.body
        stopBody = readBoundedBody(
          raw,
          {
            maxBytes: limits.maxResponseBytes,
            maxChunks,
            status: answer.statusCode,
            contentEncoding: headers['content-encoding'],
            contentLength: headers['content-length'],
          },
          {
            done: (outcome) => finish(withBody(response as Received, outcome)),
            abort: () => {},
            pauseDeadline,
            resumeDeadline,
          },
        )
        raw.on('error', fail)
      }, fail)
  })
}
