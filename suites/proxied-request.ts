import type { Dispatcher } from 'undici'
import {
  acceptEncoding,
  connectionProblem,
  deadlineProblem,
  decoderFor,
  defaultMaxChunks,
  flattenHeaders,
  maxHeaderBytes,
  type RequestInit,
  type RequestLimits,
  type RequestOutcome,
  splitUrl,
  tlsOptions,
} from './bounded-request.ts'
import type { Received } from './exchange.ts'
import type { NetworkOptions } from './network-options.ts'
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
    connections: 16,
    keepAliveTimeout: 4_000,
    maxHeaderSize: maxHeaderBytes,
    // The suite's own deadline governs (below); undici's would only race it.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: tls,
    requestTls: tls,
  })
  return (url, init, limits) => send(dispatcher, url, init, limits)
}

async function send(
  dispatcher: Dispatcher,
  url: string,
  init: RequestInit,
  limits: RequestLimits,
): Promise<RequestOutcome> {
  const left = limits.runDeadline - Date.now()
  if (left <= 0) return { ok: false, kind: 'run-deadline', message: 'the run’s deadline has passed' }
  const timeout = Math.min(limits.requestTimeoutMs, left)
  const ranOut = timeout < limits.requestTimeoutMs
  const maxChunks = limits.maxResponseChunks ?? defaultMaxChunks
  const { origin, rawPath } = splitUrl(url)
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8')
  const controller = new AbortController()
  let response: Received | undefined
  let settled = false
  return new Promise<RequestOutcome>((resolve) => {
    const finish = (outcome: RequestOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      controller.abort()
      resolve(outcome)
    }
    const timer = setTimeout(
      () => finish(deadlineProblem(ranOut, limits.requestTimeoutMs, response)),
      timeout,
    )
    const fail = (error: unknown) => finish(connectionProblem(error, response, 'proxy'))
    dispatcher
      .request({
        origin,
        // Sent byte for byte: the path-spelling checks must send `/./`, `%2e` and the like unnormalised.
        path: rawPath,
        method: init.method as Dispatcher.HttpMethod,
        headers: { 'accept-encoding': acceptEncoding, ...init.headers },
        ...(body ? { body } : {}),
        signal: controller.signal,
      })
      .then((answer) => {
        if (settled) return void answer.body.destroy()
        const headers = flattenHeaders(answer.headers)
        response = { status: answer.statusCode, headers, body: '' }
        const raw = answer.body
        const decoded = decoderFor(raw, answer.statusCode, headers['content-encoding'])
        readBoundedBody(
          raw,
          decoded,
          {
            maxBytes: limits.maxResponseBytes,
            maxChunks,
            contentEncoding: headers['content-encoding'],
            contentLength: headers['content-length'],
          },
          (outcome) => finish(withBody(response as Received, outcome)),
          () => {},
        )
        raw.on('error', fail)
      }, fail)
  })
}
