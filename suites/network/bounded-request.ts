// The suite's direct client: every request bounded in time, bytes and chunks, paced, and watched for desync.
import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import {
  ConnectionWatch,
  closeAnnouncedOn,
  connectionOf,
  type DesyncFacts,
  requestFailedOn,
  secondAnswerOn,
  sentOn,
} from './connection-watch.ts'
import { connectionsPerOrigin } from './connections-per-origin.ts'
import { readAgain, type SecondAnswer } from './desync-retry.ts'
import { defaultMaxChunks, flattenHeaders, maxHeaderBytes, splitUrl, tlsOptions } from './http-message.ts'
import { type NetworkOptions, usesProxy } from './network-options.ts'
import { outgoingHeaders } from './outgoing-headers.ts'
import type { ProxiedSend } from './proxied-request.ts'
import type { Received } from './received.ts'
import { RequestDeadline } from './request-deadline.ts'
import {
  connectionProblem,
  deadlineProblem,
  errorCode,
  type RequestInit,
  type RequestLimits,
  type RequestOutcome,
} from './request-outcome.ts'
import {
  isThrottled,
  maxRefusals,
  maxStarvationMs,
  Pacer,
  type TrafficFacts,
  waitBeforeRetry,
} from './request-pacing.ts'
import { readBoundedBody, withBody } from './response-body.ts'

// One pool per run: its checks run concurrently against the same server. node:http,
// undici only behind a proxy (proxied-request.ts): docs/decisions/node-http-for-direct-requests.md.
interface Client {
  agents: { 'http:': HttpAgent; 'https:': HttpsAgent }
  /**
   * Keep-alive saves ~8% of a run on localhost, but lets a server that writes a response nobody asked for
   * have it taken as the next request's answer: the watch sees such bytes, and turns keep-alive off.
   */
  watch: ConnectionWatch
  pacer: Pacer
  traffic: { requests: number; throttled: number; retried: number; waitedMs: number; refused: number }
  firstAt: number
  lastAt: number
  /** Set once a request stayed throttled beyond the budget: the run stops sending. */
  gaveUp?: string
  proxied?: Promise<ProxiedSend>
}
/**
 * A client per run: the network options a run holds (the target's, one object for the whole run) name its
 * pool, pacing, traffic and watch. Runs in one thread (runConformance with `inThisThread`) then never
 * share a desync, a throttled state or a count; requests sent with no options share one client.
 */
const clients = new WeakMap<NetworkOptions, Client>()
const noOptions: NetworkOptions = {}

function clientFor(options: NetworkOptions | undefined): Client {
  const network = options ?? noOptions
  let client = clients.get(network)
  if (client) return client
  const tls = tlsOptions(network)
  const watch = new ConnectionWatch()
  client = {
    agents: {
      'http:': watch.httpAgent({ keepAlive: true, maxSockets: connectionsPerOrigin, keepAliveMsecs: 4_000 }),
      'https:': watch.httpsAgent({
        keepAlive: true,
        maxSockets: connectionsPerOrigin,
        keepAliveMsecs: 4_000,
        ...tls,
      }),
    },
    watch,
    pacer: new Pacer(network?.rateLimit),
    traffic: { requests: 0, throttled: 0, retried: 0, waitedMs: 0, refused: 0 },
    firstAt: 0,
    lastAt: 0,
  }
  clients.set(network, client)
  return client
}

/**
 * Closes the connections a run kept alive and forgets its client, for a run that ends while its thread
 * goes on (runConformance with `inThisThread`): a process that ends closes them itself.
 */
export function closeRunClient(options: NetworkOptions | undefined): void {
  const network = options ?? noOptions
  const client = clients.get(network)
  if (!client) return
  clients.delete(network)
  client.agents['http:'].destroy()
  client.agents['https:'].destroy()
}

/** What the run's traffic under these network settings did so far (for the report). */
export function trafficFacts(network?: NetworkOptions): TrafficFacts {
  const { traffic, firstAt, lastAt, pacer } = clientFor(network)
  const seconds = (lastAt - firstAt) / 1000
  return {
    requests: traffic.requests,
    throttled: traffic.throttled,
    retried: traffic.retried,
    secondsWaited: Math.round(traffic.waitedMs / 100) / 10,
    effectiveRate: seconds > 0 ? Math.round((traffic.requests / seconds) * 10) / 10 : 0,
    ...(pacer.rate === undefined ? {} : { pacedAt: Math.round(pacer.rate * 10) / 10 }),
    refused: traffic.refused,
  }
}

/**
 * What the run's connections under these network settings showed so far: responses nobody asked for,
 * and the connections they came on (every answer on one of those is suspect).
 */
export function desyncFacts(network?: NetworkOptions): { desync?: DesyncFacts } {
  const { watch } = clientFor(network)
  const [first] = watch.desyncs
  if (!first) return {}
  const { bytes, statusLine, how, after } = first
  return {
    desync: {
      connections: [...watch.desynced],
      count: watch.desyncs.length,
      first: {
        bytes,
        how,
        ...(statusLine === undefined ? {} : { statusLine }),
        ...(after === undefined ? {} : { after }),
      },
    },
  }
}

/**
 * Sends one request with a deadline covering headers and body, and reads the body up to a byte cap, so
 * that an endless, trickling or silent server costs at most `requestTimeoutMs` and `maxResponseBytes`.
 * Throttling (request-pacing.ts) is waited out and the same request sent again; the run paces itself once
 * throttled, or from the start under `network.rateLimit`.
 * Never throws: a request that got no complete answer is data saying why.
 * @example await boundedRequest('http://127.0.0.1:4010/v1/pets', { method: 'GET', headers: {} }, limits)
 */
export async function boundedRequest(
  url: string,
  init: RequestInit,
  limits: RequestLimits,
): Promise<RequestOutcome> {
  const client = clientFor(limits.network)
  client.traffic.requests++
  client.firstAt ||= Date.now()
  try {
    for (let refusals = 0; ; ) {
      if (client.gaveUp) return { ok: false, kind: 'throttled', message: client.gaveUp }
      const stop = () => client.gaveUp !== undefined
      if (!(await client.pacer.turn((wait) => sleepWithin(wait, limits.runDeadline, stop))))
        return { ok: false, kind: 'run-deadline', message: 'the run’s deadline passed while pacing requests' }
      if (client.gaveUp) return { ok: false, kind: 'throttled', message: client.gaveUp }
      const sentAt = Date.now()
      const outcome = await sendFresh(url, init, limits, client)
      if (!outcome.ok || !isThrottled(outcome.response, init.declares429 === true)) {
        if (outcome.ok) client.pacer.accept()
        return outcome
      }
      client.traffic.throttled++
      client.pacer.refuse(Date.now(), sentAt)
      refusals++
      const starved = client.pacer.starvedFor()
      if (refusals >= maxRefusals || starved >= maxStarvationMs) {
        client.traffic.refused++
        client.gaveUp ??=
          refusals >= maxRefusals
            ? `staging is throttling: ${init.method} ${url} was refused ${refusals} times in a row (${outcome.response.status})`
            : `staging is throttling: nothing got through for ${Math.round(starved / 1000)} s (${outcome.response.status})`
        return { ok: false, kind: 'throttled', message: client.gaveUp }
      }
      const pause = waitBeforeRetry(outcome.response.headers['retry-after'], refusals)
      if (Date.now() + pause >= limits.runDeadline) {
        client.traffic.refused++
        return {
          ok: false,
          kind: 'run-deadline',
          message: `the run’s deadline falls within the ${Math.ceil(pause / 1000)} s the server asked to wait (${outcome.response.status})`,
        }
      }
      client.traffic.waitedMs += pause
      client.traffic.retried++
      await sleepWithin(pause, limits.runDeadline, () => client.gaveUp !== undefined)
    }
  } finally {
    client.lastAt = Date.now()
  }
}

async function sendFresh(
  url: string,
  init: RequestInit,
  limits: RequestLimits,
  client: Client,
): Promise<RequestOutcome> {
  const headers = { ...Object.fromEntries(limits.network?.headers ?? []), ...init.headers }
  const request = { ...init, headers }
  if (usesProxy(limits.network)) {
    client.proxied ??= import('./proxied-request.ts').then(({ proxiedSender }) =>
      proxiedSender(limits.network),
    )
    return (await client.proxied)(url, request, limits)
  }
  const first = await attempt(url, request, limits, client)
  // A kept-alive connection the server closed while idle fails the next request sent on it before any
  // byte of an answer (Node's docs: check `reusedSocket`; `sentOn` also counts a connection handed
  // straight from one request to the next), or gets the 408 the server sent as it closed
  // it (RFC 9110 §15.5.9: the client may repeat that request). That is the connection's fault, not the
  // server's behaviour: the request is sent once more, on a connection of its own (the pool may hold
  // others the server is closing just as well).
  if (first.staleConnection) return attempt(url, request, limits, client, true)
  // A second response came with the answer, before the next request was written on that connection
  // (node:http closed it): which of the two was this request's is unknown, so a read is sent once more on
  // a connection of its own (desync-retry.ts).
  if (first.ok && first.secondAnswer) {
    const { secondAnswer, ...answered } = first
    return readAgain(init.method, answered, secondAnswer, () => attempt(url, request, limits, client, true))
  }
  return first
}

/**
 * Sleeps `ms`, or until just before the deadline, or until `stop()` (looked at every quarter second: a run
 * that gave up must not wait out slots reserved far ahead); false when the deadline came first.
 */
async function sleepWithin(ms: number, deadline: number, stop: () => boolean): Promise<boolean> {
  const until = Date.now() + ms
  while (!stop()) {
    const now = Date.now()
    if (now >= deadline) return false
    if (now >= until) return true
    await new Promise((done) => setTimeout(done, Math.min(250, until - now, deadline - now)))
  }
  return true
}

/**
 * Whether node:http's client closes the connection once `answer` ends: it says so (`Connection: close`,
 * or HTTP/1.0 without keep-alive), or it states no length (RFC 9112 §6.3: then only the close ends it).
 * node:http's parser decides keep-alive before it learns the request was a HEAD, so a HEAD answer without
 * Content-Length or Transfer-Encoding (node:http's own server sends HEAD so) ends its connection too.
 * Such a close is the client's, and no second response.
 */
function endsConnection(answer: IncomingMessage): boolean {
  const connection = String(answer.headers.connection ?? '')
  if (/\bclose\b/i.test(connection)) return true
  if (answer.httpVersion === '1.0' && !/keep-alive/i.test(connection)) return true
  const status = answer.statusCode ?? 0
  const bodiless = (status >= 100 && status < 200) || status === 204 || status === 304
  return (
    !bodiless &&
    answer.headers['content-length'] === undefined &&
    answer.headers['transfer-encoding'] === undefined
  )
}

/** What one attempt found besides its outcome: a connection to leave, or a second answer on it. */
type Attempted = RequestOutcome & { staleConnection?: boolean; secondAnswer?: SecondAnswer }

function attempt(
  url: string,
  init: RequestInit,
  limits: RequestLimits,
  client: Client,
  ownConnection = false,
): Promise<Attempted> {
  if (limits.runDeadline - Date.now() <= 0)
    return Promise.resolve({ ok: false, kind: 'run-deadline', message: 'the run’s deadline has passed' })
  const { target, rawPath } = splitUrl(url)
  // How a finding names this request, if bytes nobody asked for follow its answer.
  const line = `${init.method} ${rawPath}`
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8')
  const maxChunks = limits.maxResponseChunks ?? defaultMaxChunks
  return new Promise((resolve) => {
    let response: Received | undefined
    let reused = false
    let before: string | undefined
    /** This request's turn on its connection (connection-watch.ts `sentOn`). */
    let turn = 0
    let settled = false
    /** Stops reading the body (body-gate.ts), once there is one. */
    let stopBody: (() => void) | undefined
    const finish = (outcome: Attempted) => {
      if (settled) return
      settled = true
      // node:http destroys the connection of a response it cannot parse; so do this request's deadlines.
      if (!outcome.ok && request.socket) requestFailedOn(request.socket)
      deadline.clear()
      clearTimeout(queued)
      stopBody?.()
      resolve(outcome)
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const request = send(
      {
        // Without the pool, its TLS options go with the request.
        ...(ownConnection
          ? { agent: false, ...tlsOptions(limits.network) }
          : { agent: client.agents[target.protocol as 'http:' | 'https:'] }),
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port,
        method: init.method,
        maxHeaderSize: maxHeaderBytes,
        // Sent byte for byte: the path-spelling checks must send `/./`, `%2e` and the like unnormalised.
        path: rawPath,
        headers: {
          ...outgoingHeaders(init.headers, init.leaveOut),
          ...(body ? { 'content-length': String(body.length) } : {}),
        },
      },
      (answer: IncomingMessage) => {
        const connection = connectionOf(answer.socket)
        if (endsConnection(answer)) closeAnnouncedOn(answer.socket)
        response = {
          status: answer.statusCode ?? 0,
          headers: flattenHeaders(answer.headers),
          body: '',
          ...(connection === undefined ? {} : { connection }),
        }
        stopBody = readBoundedBody(
          answer,
          {
            maxBytes: limits.maxResponseBytes,
            maxChunks,
            status: answer.statusCode ?? 0,
            // A HEAD, 204 or 304 answer has no body (RFC 9110 §9.3.2, §15.3.5, §15.4.5): nothing to decode,
            // and decoding nothing as gzip fails, which closed the connection like a second response.
            contentEncoding:
              init.method.toUpperCase() === 'HEAD' || answer.statusCode === 204 || answer.statusCode === 304
                ? undefined
                : answer.headers['content-encoding'],
            contentLength: answer.headers['content-length'],
          },
          {
            done: (outcome) => {
              const answered = withBody(response as Received, outcome)
              // The server's notice that it closed this idle connection, crossing the request sent on it.
              const closed = reused && answer.statusCode === 408 && answered.ok
              if (closed) return finish({ ...answered, staleConnection: true })
              const desync = answered.ok && request.socket ? secondAnswerOn(request.socket, turn) : undefined
              if (!desync) return finish(answered)
              const secondAnswer = { desync, request: line, ...(before === undefined ? {} : { before }) }
              finish({ ...answered, secondAnswer })
            },
            abort: () => request.destroy(),
            pauseDeadline,
            resumeDeadline,
          },
        )
        answer.on('error', (error) => fail(error))
        // A connection closed mid-body ends the response without 'end'.
        answer.on('close', () => {
          if (!answer.complete) fail(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
        })
      },
    )
    const fail = (error: unknown) => {
      const problem = connectionProblem(error, response)
      // A kept-alive socket the server had closed meanwhile: the caller retries once on a fresh one.
      const stale =
        problem.kind === 'closed' && !problem.response && reused && /ECONNRESET|EPIPE/.test(errorCode(error))
      finish(stale ? { ...problem, staleConnection: true } : problem)
    }
    // One deadline for the connection, the headers and the whole body, from when the request has a socket:
    // time spent queued for one of the pool's sockets is the suite's own concurrency, not the server's
    // slowness (a server answering every request in 6 s must not be "slower than 10 s" because its
    // request waited 6 s for a socket). Queued, only the run's deadline applies; other requests' deadlines
    // free the sockets.
    const expire = (ranOut: boolean) => {
      const connected = request.socket !== null && request.socket !== undefined && !request.socket.connecting
      request.destroy()
      if (!ranOut && !connected)
        return finish({
          ok: false,
          kind: 'unreachable',
          message: `cannot connect within ${limits.requestTimeoutMs} ms`,
        })
      finish(deadlineProblem(ranOut, limits.requestTimeoutMs, response))
    }
    // Stopped while the body waits for the gate (the suite's doing), not the run's deadline.
    const deadline = new RequestDeadline(limits.requestTimeoutMs, limits.runDeadline, expire)
    const startDeadline = () => {
      if (deadline.started || settled) return
      clearTimeout(queued)
      deadline.start()
    }
    function pauseDeadline() {
      if (!settled) deadline.pause()
    }
    function resumeDeadline() {
      if (!settled) deadline.resume()
    }
    const queued = setTimeout(
      () => {
        request.destroy()
        finish(deadlineProblem(true, limits.requestTimeoutMs, undefined))
      },
      Math.max(0, limits.runDeadline - Date.now()),
    )
    request.on('socket', (socket) => {
      const sent = sentOn(socket, line)
      reused = sent.again
      before = sent.before
      turn = sent.turn
      startDeadline()
    })
    request.on('error', fail)
    request.end(body)
  })
}
