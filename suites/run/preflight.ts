// What is checked before any check (server reachable, key accepted, reports writable): exit 2, not a finding;
// and a server no answer of which can be judged (every one over the byte cap): one finding, exit 1.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { boundedRequest, closeRunClient, type RequestLimits } from '../network/index.ts'
import type { ExitReason } from '../reporting/index.ts'

/**
 * Problems that are not the server's fault, found before any check: a run that cannot judge the server
 * must exit 2, not blame it. Returns the reason, in words that say what to do, or nothing; or `OverCap`
 * when even a refusal comes over the byte cap (the server's fault, judged: `overCap` below).
 *
 * Only what a working server cannot cause counts: no connection at all, a key the server refuses, no API at
 * the base URL. A server that answers badly in any other way is judged by the checks, so a real defect
 * (say, data served without a key) is never hidden here.
 */
export async function preflight(
  baseUrl: string,
  apiKey: string,
  limits: RequestLimits,
): Promise<ExitReason | OverCap | undefined> {
  // Its requests are not the run's traffic: a client of their own (network options of their own), closed
  // once answered.
  const network = { ...limits.network }
  try {
    return await askServer(baseUrl, apiKey, { ...limits, network })
  } finally {
    closeRunClient(network)
  }
}

async function askServer(
  baseUrl: string,
  apiKey: string,
  limits: RequestLimits,
): Promise<ExitReason | OverCap | undefined> {
  const url = `${baseUrl}/pets`
  const outcome = await boundedRequest(
    url,
    { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${apiKey}` } },
    limits,
  )
  if (!outcome.ok) {
    if (outcome.kind === 'throttled')
      return {
        kind: 'throttled',
        message: `${outcome.message} before the run could start.`,
        advice: "Try --rate-limit 1/s, or ask for the suite's client to be allowed more.",
      }
    if (outcome.kind === 'unreachable' && outcome.message.startsWith('TLS failed'))
      return {
        kind: 'tls',
        message: `Cannot reach ${url}: ${outcome.message}.`,
        advice:
          'If its certificate comes from an internal CA, pass that CA with --ca FILE; --insecure skips the check (only to look, never to gate a release).',
      }
    if (outcome.kind === 'unreachable' || outcome.kind === 'run-deadline')
      return {
        kind: 'unreachable',
        message: `Cannot reach ${url}: ${outcome.message}.`,
        advice: 'Is the server running, is the host name right, and does --base-url include /v1?',
      }
    if (outcome.kind === 'too-large') return overCap(url, outcome.message, limits)
    // Connected but no (complete) answer: the server's behaviour, which the checks report.
    return undefined
  }
  const { status, headers, body } = outcome.response
  if (status === 401 || status === 403)
    return {
      kind: 'key-refused',
      message: `The server refused the API key (GET ${url} answered ${status}); check it.`,
      advice: 'Pass a valid key with CONFORMANCE_API_KEY (or --api-key).',
    }
  const html = /html/i.test(headers['content-type'] ?? '') || /^\s*</.test(body)
  // A gateway's own error page (nginx, a load balancer) says the API behind it did not answer: no prefix
  // is missing, and nothing of the API can be judged.
  if (html && [502, 503, 504].includes(status))
    return {
      kind: 'gateway-error',
      message: `The gateway in front of ${baseUrl} answered GET ${url} with ${status} and an HTML page: the API behind it is down or unreachable from the gateway.`,
      advice: 'Run again once it answers.',
    }
  if (html && status >= 500)
    return {
      kind: 'gateway-error',
      message: `GET ${url} answered ${status} with an HTML page, an error page rather than the API's JSON: a gateway or the server's framework failed before the API answered.`,
      advice: "Look at the server's log, then run again.",
    }
  if (status === 404 || html)
    return {
      kind: 'no-api',
      message: `No Animal Store API at ${baseUrl}: GET ${url} answered ${status}${html ? ' with an HTML page' : ''}.`,
      advice: 'The base URL must include the version prefix, e.g. https://host/v1.',
    }
  return undefined
}

/** A server the run cannot judge at all, its fault: every check is blocked by this one finding (exit 1). */
export interface OverCap {
  overCap: string
}

/**
 * The list came over a cap: so does a refusal? Without a key, a server answers a few bytes of Error (401)
 * however large its data; a server that sends even that over the cap (an endless body, a compression bomb,
 * 50 MB of anything) has no answer a check could judge, and each of the run's ~600 requests would read
 * megabytes for nothing. Asked here, before any check, so which checks ran first never decides it.
 */
async function overCap(url: string, listed: string, limits: RequestLimits): Promise<OverCap | undefined> {
  const refused = await boundedRequest(
    `${url}?limit=1`,
    { method: 'GET', headers: { accept: 'application/json' } },
    limits,
  )
  if (refused.ok || refused.kind !== 'too-large') return undefined
  return {
    overCap: `GET ${url}: ${listed}; GET ${url}?limit=1 without a key: ${refused.message}. Every answer, even a refusal, is over the cap, so nothing the server sends can be judged: the contract's bodies are small JSON documents, and its Error a few bytes.`,
  }
}

/** A report directory that cannot be written is known before the run, not after it. */
export function ensureWritableDirectory(dir: string): ExitReason | undefined {
  try {
    makeDirectory(dir)
    // A real write: permission bits say nothing to root, nor about a read-only file system.
    const probe = join(dir, `.write-probe-${process.pid}`)
    writeFileSync(probe, '')
    rmSync(probe)
    return undefined
  } catch (error) {
    return {
      kind: 'report-dir',
      message: `Cannot write reports to ${dir} (${(error as { code?: string }).code ?? (error as Error).message}).`,
      advice: 'Choose another --report-dir.',
    }
  }
}

/**
 * mkdir -p, one level at a time: Node 20's recursive mkdirSync never returns for a path under /proc
 * (it retries the parent forever), and a report directory must fail fast, not hang the run.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = []
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.unshift(at)
    if (dirname(at) === at) break
  }
  for (const level of missing) mkdirSync(level)
}
