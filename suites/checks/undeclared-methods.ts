// Which methods each path of the contract leaves undeclared, and how a refusal of one is judged.
import { contract } from '../../contract/index.ts'
import type { Operation } from '../../contract/operations.ts'
import type { CheckContext } from '../engine/index.ts'
import { describeExchange, type Exchange, type RuleId, type SendParams } from '../judging/index.ts'

/**
 * The methods that change a resource, as every HTTP client and router knows them (RFC 9110 §9.3, RFC 5789):
 * each one the contract does not declare on a path is sent there. TRACE is not sent: RFC 9110 §9.3.8 forbids
 * a client to put credentials in it, and front servers (Apache httpd's `TraceEnable on`) echo it whatever
 * the application is. CONNECT names a proxy tunnel, never a resource.
 */
export const writeMethods = ['POST', 'PUT', 'PATCH', 'DELETE'] as const

/** One path of the contract: an operation declared there (requests are sent as it), and what it declares. */
export interface DeclaredPath {
  path: string
  operation: Operation
  declared: string[]
}

/** Every path of the contract, once, with the methods declared there. */
export const declaredPaths: DeclaredPath[] = [
  ...new Set(contract.operations.map((operation) => operation.path)),
].flatMap((path) => {
  const declared = contract.operations.filter((operation) => operation.path === path)
  const [operation] = declared
  return operation ? [{ path, operation, declared: declared.map((one) => one.method) }] : []
})

/** The path with its parameters filled, as sent from the origin (no Prism: it would answer these itself). */
function originPathOf(context: Pick<CheckContext, 'target'>, path: string, petId: unknown): string {
  const basePath = new URL(context.target.baseUrl).pathname.replace(/\/$/, '')
  return `${basePath}${path.replace(/\{[^}]+\}/g, encodeURIComponent(String(petId)))}`
}

/** Sends `method` to a path of the contract that does not declare it, with the key or without. */
export function sendUndeclared(
  context: Pick<CheckContext, 'send' | 'target'>,
  { path, operation }: DeclaredPath,
  method: string,
  petId: unknown,
  extra: Pick<SendParams, 'authorization' | 'body'> = {},
): Promise<Exchange> {
  return context.send(operation.id, {
    intent: 'unsupported-method',
    method,
    fault: method,
    originPath: originPathOf(context, path, petId),
    ...extra,
  })
}

/** Records a rule the exchange broke without ending the check: every method is still tried. */
export function flag(exchange: Exchange, rule: RuleId, where: string, message: string, cites?: string): void {
  exchange.violations.push({
    rule,
    operation: exchange.operation,
    where,
    message,
    exchange: describeExchange(exchange),
    ...(cites ? { cites } : {}),
  })
}

/**
 * A refusal with the key: 405 must carry `Allow` (RFC 9110 §15.5.6), whose promise `keepAllowPromise`
 * holds; 404 (Express' default), 400 (a body validator that runs first) and the like are warnings, since
 * the contract does not say 405; 501 (RFC 9110 §15.6.2: a method the server supports nowhere) passes.
 */
export function judgeRefusal(
  context: Pick<CheckContext, 'warn'>,
  exchange: Exchange,
  { path }: DeclaredPath,
): void {
  const { status, headers } = exchange.response
  const { method } = exchange.request
  if (status === 405) {
    if (headers.allow === undefined)
      flag(
        exchange,
        'unsupported-method',
        '405 responses carry Allow',
        `${method} ${path} answered 405 without an Allow header; RFC 9110 §15.5.6 requires one listing the methods the resource supports.`,
      )
  } else if (status >= 400 && status <= 499 && !['HEAD', 'OPTIONS'].includes(method))
    context.warn(
      // The same words on every path and method, so the report says it once: a router's habit.
      `A method the contract does not declare on a path was refused with ${status}, not 405: RFC 9110 §15.5.6 answers a method the resource does not support with 405 and an Allow header (the contract itself does not say).`,
    )
}
