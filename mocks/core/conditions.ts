// Injected latency and faults: their options, how `Prefer: delay=/fault=` and fault rates decide a request.
import { errorResponse } from './error-codes.ts'
import type { MockRequest, MockResponse } from './mock-http.ts'

/**
 * The faults the mock can inject. They are not contract behaviours: they exist so a frontend can test its
 * error handling. `500`/`503` are answers with the contract's Error body; `reset` drops the connection
 * (a network error, `TypeError: Failed to fetch` in a browser); `timeout` never answers (until the client
 * gives up, or `hangLimitMs`); `truncate` sends the status, the headers and half the body, then drops it.
 */
export const faultKinds = ['503', '500', 'reset', 'timeout', 'truncate'] as const
export type FaultKind = (typeof faultKinds)[number]

/** What a fault rate draws from unless told otherwise: every kind but `timeout`, which hangs a client without its own timeout. */
export const defaultRateFaultKinds: readonly FaultKind[] = ['503', '500', 'reset', 'truncate']

/** A fixed delay in ms, or a range drawn from the mock's seed. */
export type Latency = number | { min: number; max: number }

/** The largest delay the mock waits, by option or by `Prefer: delay=`: one minute. */
export const maxDelayMs = 60_000

/** A `timeout` fault drops the connection after this long if the client never gives up (2 minutes). */
export const hangLimitMs = 120_000

/** The header that marks every faulted answer (exposed to pages by CORS). */
export const faultHeader = 'x-mock-fault'

/** Latency and faults, off unless set. */
export interface ConditionOptions {
  /** Delay before every API answer: ms, or `{ min, max }` drawn from the seed. Default: none. */
  latency?: Latency
  /** The share of API requests, 0 to 1, that get a fault drawn from `faultKinds`. Default: 0. */
  faultRate?: number
  /** The kinds a fault rate draws from (default: 503, 500, reset, truncate). */
  faultKinds?: FaultKind[]
  /** Per operationId, settings that replace the global ones for that operation. */
  operations?: Record<string, { latency?: Latency; faultRate?: number }>
}

/** Latency and faults as the core applies them, checked and normalised. */
export interface Conditions {
  /** Whether anything is set at all: when false (and no Prefer header), requests skip this stage. */
  active: boolean
  latency: { min: number; max: number } | undefined
  faultRate: number
  faultKinds: readonly FaultKind[]
  byOperation: ReadonlyMap<string, { latency?: { min: number; max: number }; faultRate?: number }>
}

/** What the core decided for one request: wait this long, then answer or carry out this fault. */
export interface Decision {
  delayMs: number
  fault: FaultKind | undefined
  /** Why the fault happened, for its message: `Prefer: fault=503` or `fault rate 0.2`. */
  cause: string
  /** The preferences honoured, for `Preference-Applied` (RFC 7240 §3). */
  applied: string[]
}

/**
 * Checks and normalises condition options.
 * @throws an Error saying which option is wrong and what it accepts.
 */
export function resolveConditions(options: ConditionOptions): Conditions {
  const latency = options.latency === undefined ? undefined : checkLatency('latency', options.latency)
  const faultRate = checkRate('faultRate', options.faultRate ?? 0)
  const kinds = options.faultKinds ?? defaultRateFaultKinds
  for (const kind of kinds) {
    if (!faultKinds.includes(kind))
      throw new Error(`Unknown fault kind "${kind}": use ${faultKinds.join(', ')}.`)
  }
  if (kinds.length === 0)
    throw new Error(`faultKinds is empty: give at least one of ${faultKinds.join(', ')}.`)
  const byOperation = new Map<string, { latency?: { min: number; max: number }; faultRate?: number }>()
  for (const [id, setting] of Object.entries(options.operations ?? {})) {
    byOperation.set(id, {
      ...(setting.latency === undefined ? {} : { latency: checkLatency(`${id} latency`, setting.latency) }),
      ...(setting.faultRate === undefined
        ? {}
        : { faultRate: checkRate(`${id} faultRate`, setting.faultRate) }),
    })
  }
  const active =
    (latency !== undefined && latency.max > 0) ||
    faultRate > 0 ||
    [...byOperation.values()].some(
      (setting) => (setting.latency?.max ?? 0) > 0 || (setting.faultRate ?? 0) > 0,
    )
  return { active, latency, faultRate, faultKinds: [...kinds], byOperation }
}

/**
 * Reads a latency written as `300` or `200-800` (ms), as the `--latency` flag takes it.
 * @returns undefined when the text is neither.
 */
export function parseLatency(text: string): Latency | undefined {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text)
  if (!match) return undefined
  const min = Number(match[1])
  return match[2] === undefined ? min : { min, max: Number(match[2]) }
}

/**
 * Decides the latency and the fault of one API request, from `Prefer: delay=MS` / `Prefer: fault=KIND`
 * (which win) and the conditions, drawing from `random` only for a range or a rate. Never waits: the
 * adapter carries the decision out.
 * @returns undefined when there is nothing to do, or the 400 to send for a Prefer the mock cannot honour.
 */
export function decideConditions(
  request: MockRequest,
  operationId: string | undefined,
  conditions: Conditions,
  random: () => number,
): Decision | MockResponse | undefined {
  const prefer = request.headers.prefer
  const preferredDelay = prefer === undefined ? undefined : preference(prefer, 'delay')
  const preferredFault = prefer === undefined ? undefined : preference(prefer, 'fault')
  if (preferredDelay === undefined && preferredFault === undefined && !conditions.active) return undefined
  const applied: string[] = []
  let delayMs = 0
  if (preferredDelay !== undefined) {
    delayMs = Number(preferredDelay)
    if (!/^\d+$/.test(preferredDelay) || delayMs > maxDelayMs) {
      return errorResponse(
        'invalid_prefer',
        `Prefer: delay=${preferredDelay} cannot be served: give whole milliseconds from 0 to ${maxDelayMs}.`,
      )
    }
    applied.push(`delay=${delayMs}`)
  }
  let fault: FaultKind | undefined
  let cause = ''
  if (preferredFault !== undefined) {
    if (!faultKinds.includes(preferredFault as FaultKind)) {
      return errorResponse(
        'invalid_prefer',
        `Prefer: fault=${preferredFault} cannot be served: use one of ${faultKinds.join(', ')}.`,
      )
    }
    fault = preferredFault as FaultKind
    cause = `Prefer: fault=${fault}`
    applied.push(`fault=${fault}`)
  }
  const own = operationId === undefined ? undefined : conditions.byOperation.get(operationId)
  if (preferredDelay === undefined) {
    const latency = own?.latency ?? conditions.latency
    if (latency !== undefined) {
      delayMs =
        latency.min === latency.max
          ? latency.min
          : latency.min + Math.floor(random() * (latency.max - latency.min + 1))
    }
  }
  if (fault === undefined) {
    const rate = own?.faultRate ?? conditions.faultRate
    if (rate > 0 && random() < rate) {
      fault = conditions.faultKinds[Math.floor(random() * conditions.faultKinds.length)]
      cause = `fault rate ${rate}`
    }
  }
  if (delayMs === 0 && fault === undefined && applied.length === 0) return undefined
  return { delayMs, fault, cause, applied }
}

/** The answer a fault of kind `503` or `500` sends: the contract's Error, marked, never touching the store. */
export function faultAnswer(kind: '503' | '500', cause: string): MockResponse {
  const marked = { [faultHeader]: kind }
  return kind === '503'
    ? errorResponse(
        'service_unavailable',
        `Injected fault (${cause}): the mock pretends to be unavailable. Retry after the Retry-After seconds.`,
        // RFC 9110 §10.2.3: Retry-After in seconds.
        { ...marked, 'retry-after': '1' },
      )
    : errorResponse('internal_error', `Injected fault (${cause}): the mock pretends to have failed.`, marked)
}

/** The first half of a body's UTF-8 bytes: what a `truncate` fault sends before dropping the connection. */
export function truncatedBytes(body: string | undefined): Uint8Array {
  const bytes = new TextEncoder().encode(body ?? '')
  return bytes.subarray(0, Math.floor(bytes.length / 2))
}

function preference(prefer: string, name: string): string | undefined {
  // RFC 7240 §2: preferences are `token [= word]`, separated by commas; a quoted word loses its quotes.
  return new RegExp(`(?:^|[,;\\s])${name}\\s*=\\s*"?([^",;\\s]*)"?`, 'i').exec(prefer)?.[1]
}

function checkLatency(name: string, latency: Latency): { min: number; max: number } {
  const range = typeof latency === 'number' ? { min: latency, max: latency } : latency
  const ok = (value: number) => Number.isInteger(value) && value >= 0 && value <= maxDelayMs
  if (!ok(range.min) || !ok(range.max) || range.min > range.max) {
    throw new Error(
      `${name} must be whole milliseconds from 0 to ${maxDelayMs}, or a range such as 200-800 with min <= max; got ${JSON.stringify(latency)}.`,
    )
  }
  return range
}

function checkRate(name: string, rate: number): number {
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
    throw new Error(`${name} must be a number from 0 to 1, such as 0.05; got ${JSON.stringify(rate)}.`)
  return rate
}
