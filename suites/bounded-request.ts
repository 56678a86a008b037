import { Agent } from 'undici'

/** What bounds every request of a run, whatever the server does. */
export interface RequestLimits {
  /** One deadline per request, covering the connection, the headers and the whole body. */
  requestTimeoutMs: number
  /** Bodies are read up to this many bytes; a larger one is not kept. */
  maxResponseBytes: number
  /** The run's own deadline (epoch ms): no request outlives it. */
  runDeadline: number
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

// One pool per process: checks run concurrently against the same server. The per-request signal below is
// the real deadline; these only stop undici's own longer defaults from mattering.
const agent = new Agent({ connections: 16, keepAliveTimeout: 4_000, connect: { timeout: 10_000 } })

const keptOfTooLarge = 64 * 1024

// Errors that mean no server answered at all: the target, not the server's behaviour, is the problem.
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])

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
  const left = limits.runDeadline - Date.now()
  if (left <= 0) return { ok: false, kind: 'run-deadline', message: 'the run’s deadline has passed' }
  const timeout = Math.min(limits.requestTimeoutMs, left)
  const signal = AbortSignal.timeout(timeout)
  let response: Received | undefined
  try {
    // The dispatcher API sends the path byte for byte: a URL string would be normalised first (`/./`,
    // `%2e`), and the path-spelling checks must send exactly those spellings.
    const { origin, rawPath } = splitUrl(url)
    const answer = await agent.request({
      origin,
      path: rawPath,
      method: init.method as 'GET',
      headers: init.headers,
      signal,
      ...(init.body === undefined ? {} : { body: init.body }),
    })
    response = { status: answer.statusCode, headers: flattenHeaders(answer.headers), body: '' }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of answer.body) {
      size += (chunk as Buffer).length
      if (size > limits.maxResponseBytes) {
        answer.body.destroy()
        // Only the start is kept, for the report: the rest is what the cap is there to drop.
        response.body = Buffer.concat(chunks).subarray(0, keptOfTooLarge).toString('utf8')
        return {
          ok: false,
          kind: 'too-large',
          response,
          message: `response larger than ${limits.maxResponseBytes} bytes`,
        }
      }
      chunks.push(chunk as Buffer)
    }
    response.body = Buffer.concat(chunks).toString('utf8')
    return { ok: true, response }
  } catch (error) {
    const code = errorCode(error)
    if (signal.aborted) {
      const ranOut = timeout < limits.requestTimeoutMs
      return {
        ok: false,
        kind: ranOut ? 'run-deadline' : 'timeout',
        message: ranOut
          ? 'the run’s deadline passed while waiting for the response'
          : `no complete response within ${limits.requestTimeoutMs} ms (${response ? 'the body did not finish' : 'no headers'})`,
        ...(response && !ranOut ? { response } : {}),
      }
    }
    if (response === undefined && unreachableCodes.has(code))
      return { ok: false, kind: 'unreachable', message: `cannot connect (${code})` }
    if (response === undefined && isTlsError(code, error))
      return { ok: false, kind: 'unreachable', message: `TLS failed (${code || (error as Error).message})` }
    return {
      ok: false,
      kind: 'closed',
      message: `the connection closed ${response ? 'mid-body' : 'before a response'} (${code || (error as Error).message})`,
      ...(response ? { response } : {}),
    }
  }
}

/** The origin and the path exactly as written (no dot-segment or percent-encoding normalisation). */
function splitUrl(url: string): { origin: string; rawPath: string } {
  const origin = new URL(url).origin
  const afterScheme = url.indexOf('//') + 2
  const slash = url.indexOf('/', afterScheme)
  return { origin, rawPath: slash === -1 ? '/' : url.slice(slash) }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
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
