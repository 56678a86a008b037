// Builds the request a check means from the contract: method, path, key, body, and whether Prism relays it.
import { containsBigInt } from '../../contract/exact-json.ts'
import type { Operation } from '../../contract/operations.ts'
import type { Exchange, SendParams } from '../judging/index.ts'
import { parseJson } from '../judging/index.ts'
import type { ConformanceTarget } from './target.ts'

/** A request ready to send, and whether it goes through Prism's proxy. */
export interface BuiltRequest {
  request: Exchange['request']
  viaPrism: boolean
  /** Headers the network adds by default that this request leaves out (`accept-encoding`). */
  leaveOut?: readonly string[]
}

/**
 * The request a check means, built from the contract: the operation's method and path with its
 * parameters, the base URL (or Prism's, or the server's origin for another spelling of the path), the
 * key as a bearer token unless the check says otherwise, and JSON's Content-Type for a body.
 * @example buildRequest(target, contract.operation('getPet'), { intent: 'valid', path: { petId: 1 } })
 * // { request: { method: 'GET', url: 'http://h/v1/pets/1', headers: {...} }, viaPrism: false }
 */
export function buildRequest(
  target: ConformanceTarget,
  operation: Operation,
  params: SendParams,
): BuiltRequest {
  const line = requestLine(operation, params.originPath === undefined ? params : { rawPath: '' })
  const { path } = line
  const method = params.method ?? line.method
  // Prism's proxy answers a body that is not JSON itself (its own 400) instead of forwarding it, so such
  // requests go straight to the server: otherwise the server would be judged on Prism's answer.
  // Nor do bodies holding integers beyond 2^53: Prism (JavaScript) re-serialises them through doubles, so
  // the server would be judged on values it never received (-2^63−1 arrives as -2^63, a valid int64).
  // A client's own headers go straight to the server too: Prism's proxy writes its own upstream.
  const viaPrism =
    target.prismUrl !== undefined &&
    params.originPath === undefined &&
    params.headers === undefined &&
    params.leaveOut === undefined &&
    !(params.body !== undefined && params.body !== '' && !judgeableThroughPrism(params.body))
  const url =
    params.originPath !== undefined
      ? `${new URL(target.baseUrl).origin}${params.originPath}`
      : `${viaPrism ? target.prismUrl : target.baseUrl}${path}`
  const headers: Record<string, string> = { accept: 'application/json' }
  const authorization = params.authorization === undefined ? `Bearer ${target.apiKey}` : params.authorization
  if (authorization !== null) headers.authorization = authorization
  if (params.body !== undefined) headers['content-type'] = 'application/json'
  // RFC 9110 §5.1: a name in another letter case is the same field, so a client's spelling replaces ours.
  for (const [name, value] of Object.entries(params.headers ?? {})) {
    for (const own of Object.keys(headers)) if (own === name.toLowerCase()) delete headers[own]
    headers[name] = value
  }
  for (const name of params.leaveOut ?? []) delete headers[name.toLowerCase()]
  return {
    request: { method, url, headers, ...(params.body === undefined ? {} : { body: params.body }) },
    viaPrism,
    ...(params.leaveOut === undefined ? {} : { leaveOut: params.leaveOut }),
  }
}

/** The method and path of an operation with its parameters filled in, from the contract. */
function requestLine(operation: Operation, params: Pick<SendParams, 'path' | 'query' | 'rawPath'>) {
  const path =
    params.rawPath ??
    operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params.path?.[name]
      if (value === undefined) throw new Error(`No value for path parameter ${name} of ${operation.id}.`)
      return encodeURIComponent(String(value))
    })
  const query =
    typeof params.query === 'string'
      ? params.query
      : new URLSearchParams(
          Object.entries(params.query ?? {}).map(([name, value]) => [name, String(value)]),
        ).toString()
  return { method: operation.method, path: query === '' ? path : `${path}?${query}` }
}

function judgeableThroughPrism(body: string): boolean {
  const parsed = parseJson(body)
  return parsed !== undefined && !containsBigInt(parsed)
}
