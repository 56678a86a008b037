// The response check of the status against what the request meant: the first root cause to look for.
import type { Operation } from '../../../contract/operations.ts'
import type { Intent, SendParams } from '../request-intent.ts'
import type { RuleId } from '../rules.ts'
import { declaredResponse, type Judging, type ResponseCheck, schemaWords } from './judging.ts'

/**
 * The status, given what the request was meant to be (see `Intent`). A wrong status is the root cause:
 * judging that response's body against the status's schema would only report the same defect again.
 */
export const statusCheck: ResponseCheck = {
  name: 'status',
  rules: [
    'server-error',
    'auth',
    'invalid-accepted',
    'invalid-not-refused',
    'wrong-status',
    'undeclared-status',
  ],
  judge(judging) {
    const { exchange, operation, params, recorder, name, declared, violate } = judging
    const { status } = exchange.response
    const { intent } = params
    // An operation whose responses the contract does not define (GET /store/orders) may say it is not
    // implemented: that is the server's honest answer to an open contract, not a server error.
    if (status === 501 && !operation.declaresResponses && intent === 'valid') {
      recorder.warnings.push(
        `${name} answered 501 with a valid key: the server declares it unimplemented (the contract defines none of its responses).`,
      )
      return 'stop'
    }
    if (intent === 'unsupported-method') return undeclaredMethodStatus(judging)
    const broken = statusViolation(operation, status, declared !== undefined, params)
    if (broken) {
      violate(...broken, { cites: citation(operation, broken[0], params.fault) })
      exchange.bodyUsable = false
      return 'stop'
    }
    if (intent === 'no-data' || intent === 'past-sunset' || intent === 'named-by-header') return 'stop'
    // Nothing but "no server error" is defined for an operation that declares no responses.
    if (!operation.declaresResponses && intent === 'valid') return 'stop'
    if (
      (intent === 'invalid' || intent === 'no-such-pet') &&
      status >= 400 &&
      operation.declaresResponses &&
      !declared
    )
      recorder.advice.push(
        `${name} answers invalid requests with ${status}, which the contract does not declare for it: declare ${status} with the Error body, so clients and tools know it.`,
      )
    return undefined
  },
}

/**
 * A method the contract does not declare on the path, with or without the key. 404, 405 and 501 are all
 * honest refusals (501: RFC 9110 §15.6.2, a method the server supports nowhere), judged on as an Error;
 * any other 5xx is a server error. A 2xx or 3xx is the check's to judge: whether it was served without a
 * key, changed data, or only answered (it knows what it sent and reads the store back). A HEAD answer has
 * no body to judge (RFC 9110 §9.3.2).
 */
function undeclaredMethodStatus(judging: Judging): 'stop' | undefined {
  const { exchange, operation, violate } = judging
  const { status } = exchange.response
  const { method } = exchange.request
  if (status >= 500 && status !== 501) {
    violate(
      'server-error',
      `${operation.method} ${operation.path} answers 5xx`,
      `${method} ${operation.path} answered ${status}: a server error, never acceptable for any request.`,
      { cites: citation(operation, 'server-error', undefined) },
    )
    exchange.bodyUsable = false
    return 'stop'
  }
  if (status < 400 || method === 'HEAD') {
    exchange.bodyUsable = status < 400 && method !== 'HEAD'
    return 'stop'
  }
  return undefined
}

/** The rule a response's status alone breaks, given what the request was meant to be. */
function statusViolation(
  operation: Operation,
  status: number,
  declared: boolean,
  { intent, fault }: SendParams,
): [RuleId, string, string] | undefined {
  const name = `${operation.method} ${operation.path}`
  if (status >= 500)
    return [
      'server-error',
      `${name} answers 5xx`,
      `${name} answered ${status}: a server error, never acceptable for any request.`,
    ]
  // Removed or still served: the contract's lifecycle, which the check holds the answer to.
  if (intent === 'past-sunset' || intent === 'named-by-header') return undefined
  if (intent === 'unauthorized' && status !== 401)
    return [
      'auth',
      fault ?? 'requests without a valid key',
      `${name} with ${fault ?? 'no valid API key'} answered ${status}; the contract requires 401.`,
    ]
  if (intent === 'no-data' && status >= 200 && status < 300)
    return [
      'auth',
      fault ?? 'a spelling of the path without a key',
      `${name} spelled differently and sent without a key answered ${status}: data without a key.`,
    ]
  if (intent === 'invalid' && (status < 400 || status > 499)) {
    // Where the operation declares a refusal (400, 404), accepting what breaks the contract breaks its
    // words; where it declares none (listPets: 200 and 401 only), asking for a 4xx is the suite's policy.
    const refusal = declaresRefusal(operation)
    const queryName = /^query (\S+)$/.exec(fault ?? '')?.[1]
    const parameter = operation.parameters.find((one) => one.in === 'query' && one.name === queryName)
    const words = parameter && schemaWords(parameter.schemaPointer)
    return [
      refusal ? 'invalid-accepted' : 'invalid-not-refused',
      `${operation.id} ${fault ?? 'invalid request'}`,
      `${name} accepted a request that breaks the contract (${fault ?? 'invalid'}): ${status}, expected a 4xx${words ? `; the contract says ${queryName}: ${words}` : ''}${refusal ? '' : ` (it declares no refusal status for ${operation.id}: refusing is the suite's policy)`}.`,
    ]
  }
  // Where the contract names the status for this very situation, another 4xx breaks it; elsewhere the
  // contract leaves the 4xx open (an undeclared one is advice for the contract, not a finding).
  const held = heldStatus(operation, intent, fault)
  if (held && status >= 400 && status <= 499 && status !== held.status)
    return [
      'wrong-status',
      held.where,
      `${name} answered ${status} to ${held.situation}${fault ? ` (${fault})` : ''}; the contract declares ${held.status} for ${held.situation}.`,
    ]
  if (
    (intent === 'valid' || (intent === 'valid-or-refused' && status < 400)) &&
    operation.declaresResponses &&
    !declared
  )
    return [
      'undeclared-status',
      `${operation.id} answers ${status}`,
      `${name} answered ${status} to a valid request; the contract declares ${operation.responses.map((r) => r.status).join(', ')}.`,
    ]
  return undefined
}

/**
 * Where the contract says what the status must be: the parameter's schema for an out-of-range query value,
 * the security scheme for auth, else the operation's declared responses.
 */
function citation(operation: Operation, rule: RuleId, fault: string | undefined): string {
  if (rule === 'auth') return '/components/securitySchemes/bearerAuth'
  const name = /^query (\S+)$/.exec(fault ?? '')?.[1]
  const parameter = operation.parameters.find((one) => one.in === 'query' && one.name === name)
  if ((rule === 'invalid-not-refused' || rule === 'invalid-accepted') && parameter)
    return parameter.schemaPointer.replace(/^#/, '')
  return `/paths/${operation.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${operation.method.toLowerCase()}/responses`
}

/** Whether the operation declares a 4xx for requests it refuses, other than 401 (which is about the key). */
function declaresRefusal(operation: Operation): boolean {
  return operation.responses.some((response) => /^4\d\d$/.test(response.status) && response.status !== '401')
}

/**
 * The status the contract declares for the situation a request was made to show, if it declares one:
 * 400 for a createPet body that is missing required fields or holds invalid values, 404 for an id no pet
 * has. Read from the operation's declared responses, so an operation without them holds nothing.
 */
function heldStatus(
  operation: Operation,
  intent: Intent,
  fault: string | undefined,
): { status: number; situation: string; where: string } | undefined {
  if (intent === 'invalid' && fault?.startsWith('body') && declaredResponse(operation, 400))
    return { status: 400, situation: 'invalid bodies', where: `${operation.id} invalid bodies` }
  if (intent === 'no-such-pet' && declaredResponse(operation, 404))
    return { status: 404, situation: 'an id no pet has', where: `${operation.id} unknown id` }
  return undefined
}
