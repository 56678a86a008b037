// With --via-prism: Prism's validating proxy in front of the server, unless it would round the server's ids.
import type { ConformanceTarget } from '../engine/index.ts'
import { parseJson } from '../judging/index.ts'
import { boundedRequest } from '../network/index.ts'

export interface PrismInFront {
  /** Stops Prism; nothing when it was not started. */
  stop(): Promise<void>
  /** What the report must say the run could not do. */
  limitations: string[]
  /** Prism's process, when it was started: the report's peak memory counts it. */
  pid?: number | undefined
}

/**
 * Starts Prism's proxy in front of the server and points the target at it (`target.prismUrl`). Prism's
 * proxy re-serialises JSON through doubles: a server whose pet ids are beyond 2^53 would be judged on
 * Prism's rounding of every one of them, so it is checked directly then, and the report says so.
 */
export async function putPrismInFront(
  target: ConformanceTarget,
  print: (line: string) => void,
): Promise<PrismInFront> {
  if (await servesUnsafeIds(target)) {
    print('Not using Prism: the server’s pet ids are beyond 2^53, which Prism’s proxy would round.')
    return {
      stop: async () => {},
      limitations: [
        'Asked for --via-prism, but the server’s pet ids are beyond 2^53, which Prism’s proxy would round (it re-serialises JSON through doubles), so every request went straight to the server and Prism’s own checks were not applied.',
      ],
    }
  }
  print('Starting Prism’s validating proxy in front of the server...')
  // Loaded only here: Prism is an optional extra, not needed by a plain run.
  const { startPrism } = await import('../../mocks/prism/start-prism.ts')
  const prism = await startPrism({ mode: 'proxy', upstream: target.baseUrl })
  target.prismUrl = prism.url
  return { stop: () => prism.stop(), limitations: [], pid: prism.pid }
}

/**
 * Whether the server's first page already holds pet ids beyond 2^53 (read exactly, they are bigints):
 * Prism would hand the suite rounded ids, and every read by id would miss. Other int64 fields are judged
 * through Prism with its rounding allowed for (judging/prism-rounded.ts).
 */
async function servesUnsafeIds(target: ConformanceTarget): Promise<boolean> {
  const outcome = await boundedRequest(
    `${target.baseUrl}/pets?limit=100`,
    { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${target.apiKey}` } },
    {
      requestTimeoutMs: target.requestTimeoutMs,
      maxResponseBytes: target.maxResponseBytes,
      runDeadline: target.runDeadline,
      ...(target.network ? { network: target.network } : {}),
    },
  )
  const page = outcome.ok ? parseJson(outcome.response.body) : undefined
  return Array.isArray(page) && page.some((pet) => typeof (pet as { id?: unknown })?.id === 'bigint')
}
