import { contract } from '../../contract/index.ts'
import {
  fieldValues,
  nearMissCredentials,
  nearMissPathIds,
  nearMissQueries,
  pathSpellings,
  validBodies,
} from '../generated-values.ts'
import { runStatefulModel } from '../stateful-model.ts'
import { httpModelApi, type RawExchange, sendRaw } from './raw-http.ts'
import type { RuleId } from './realistic-broken-servers.ts'

/**
 * A thin harness that runs issue 9's new building blocks against one server and lists what they find.
 * The lead's runner replaces it; it exists so the proof can run now.
 */
export interface DepthFinding {
  rule: RuleId
  /** `listPets`, `createPet`, `getPet` or `GET /store/orders`. */
  operation: string
  severity: 'failure' | 'warning'
  /** Credential and path-spelling findings belong in the report's security section. */
  section: 'values' | 'security' | 'stateful'
  message: string
}

export interface DepthOptions {
  seed: number
  maxExamples: number
}

const concurrency = 4
const petFields = ['id', ...Object.keys(fieldValues('createPet'))]

/**
 * Runs the generated-value checks (valid values round-trip, near-miss invalid values), the security
 * checks (near-miss credentials on every operation, path spellings without a key) and the stateful
 * model against a server.
 * @example const findings = await runDepthChecks({ baseUrl, apiKey }, { seed: 1, maxExamples: 10 })
 */
export async function runDepthChecks(
  server: { baseUrl: string; apiKey: string },
  options: DepthOptions,
): Promise<DepthFinding[]> {
  const url = new URL(server.baseUrl)
  const prefix = url.pathname.replace(/\/$/, '')
  // `sendPath` takes a whole path (the spellings change the prefix too); `send` one relative to the base URL.
  const sendPath = (method: string, path: string, authorization: string | null, body?: string) =>
    sendRaw(url.origin, {
      method,
      path,
      headers: authorization === null ? {} : { authorization },
      ...(body === undefined ? {} : { body }),
    }).catch(
      (error: Error): RawExchange => ({ status: 0, headers: {}, text: error.message, json: undefined }),
    )
  const send = (method: string, path: string, authorization: string | null, body?: string) =>
    sendPath(method, `${prefix}${path}`, authorization, body)
  const key = `Bearer ${server.apiKey}`
  const findings: DepthFinding[] = []
  const add = (finding: DepthFinding) => findings.push(finding)

  // Point 1: every valid value comes back exactly as sent, from the 201, by id, and in its filtered list.
  await forEach(validBodies('createPet'), async ({ label, value }) => {
    const fail = (rule: RuleId, operation: string, message: string) =>
      add({ rule, operation, severity: 'failure', section: 'values', message: `${label}: ${message}` })
    const created = await send('POST', '/pets', key, JSON.stringify(value))
    if (created.status !== 201)
      return fail(
        statusRule('createPet', created.status),
        'createPet',
        `POST /pets answered ${created.status} ${clip(created.text)}; a valid body needs 201.`,
      )
    if (!contract.validateResponseBody('createPet', 201, created.json).ok)
      return fail('body-schema', 'createPet', `201 body ${clip(created.text)} is not a Pet.`)
    const pet = created.json as Record<string, unknown>
    for (const [field, sent] of Object.entries(value))
      if (pet[field] !== sent)
        return fail(
          'changed-value',
          'createPet',
          `201 has ${field} ${clip(JSON.stringify(pet[field]))}, sent ${clip(JSON.stringify(sent))}.`,
        )
    const found = await send('GET', `/pets/${pet.id}`, key)
    if (found.status === 404)
      return fail('lost-write', 'getPet', `GET /pets/${pet.id} answered 404 for the pet just created.`)
    if (found.status !== 200)
      return fail(
        statusRule('getPet', found.status),
        'getPet',
        `GET /pets/${pet.id} answered ${found.status}.`,
      )
    const change = differs(pet, found.json)
    if (change) return fail('changed-value', 'getPet', `GET /pets/${pet.id} ${change}.`)
    const filter = typeof pet.status === 'string' ? `status=${pet.status}&` : ''
    const listed = await send('GET', `/pets?${filter}limit=100`, key)
    if (listed.status !== 200 || !Array.isArray(listed.json))
      return fail(
        statusRule('listPets', listed.status),
        'listPets',
        `GET /pets?${filter}limit=100 answered ${listed.status} ${clip(listed.text)}.`,
      )
    const same = (listed.json as Record<string, unknown>[]).find((other) => other.id === pet.id)
    if (!same && listed.json.length < 100)
      return fail(
        'lost-write',
        'listPets',
        `GET /pets?${filter}limit=100 returned ${listed.json.length} pets without pet ${pet.id}.`,
      )
    const listedChange = same && differs(pet, same)
    if (listedChange)
      return fail('changed-value', 'listPets', `GET /pets?${filter}limit=100: pet ${pet.id} ${listedChange}.`)
  })

  // Point 2: near-miss invalid values need a 4xx Error; an undeclared 4xx only warns (README policy).
  const expectRefused = (operation: string, what: string, answer: RawExchange) => {
    if (answer.status >= 200 && answer.status < 300)
      return add({
        rule: 'invalid-accepted',
        operation,
        severity: 'failure',
        section: 'values',
        message: `${what} answered ${answer.status}; it breaks the contract and needs a 4xx.`,
      })
    if (answer.status < 400 || answer.status > 499)
      return add({
        rule: statusRule(operation, answer.status),
        operation,
        severity: 'failure',
        section: 'values',
        message: `${what} answered ${answer.status}; it needs a 4xx.`,
      })
    const errorProblem = errorBodyProblem(answer)
    if (errorProblem)
      return add({
        rule: errorProblem.rule,
        operation,
        severity: 'failure',
        section: 'values',
        message: `${what}: ${errorProblem.message}`,
      })
    if (!declares(operation, answer.status))
      add({
        rule: 'undeclared-status',
        operation,
        severity: 'warning',
        section: 'values',
        message: `${what} answered ${answer.status}, which ${operation} does not declare.`,
      })
  }
  await forEach(nearMissQueries('listPets'), async ({ label, query }) =>
    expectRefused('listPets', `GET /pets?${query} (${label})`, await send('GET', `/pets?${query}`, key)),
  )
  await forEach(nearMissPathIds('getPet'), async ({ label, pathId, expect }) => {
    const what = `GET /pets/${pathId} (${label})`
    const answer = await send('GET', `/pets/${pathId}`, key)
    if (expect === 'invalid') return expectRefused('getPet', what, answer)
    if (answer.status === 404 || (answer.status >= 400 && answer.status < 500))
      return expectRefused('getPet', what, answer)
    const isThatPet =
      answer.status === 200 &&
      (answer.json as { id?: unknown } | undefined)?.id === Number(decodeURIComponent(pathId))
    if (!isThatPet)
      add({
        rule: statusRule('getPet', answer.status),
        operation: 'getPet',
        severity: 'failure',
        section: 'values',
        message: `${what} answered ${answer.status} ${clip(answer.text)}; no pet has that id, so 404.`,
      })
  })

  // Point 3: credentials and paths that nearly work, on every operation: never a 2xx, 401 where the contract applies.
  const operations = contract.operations.map((operation) => ({
    operation: operation.id,
    method: operation.method,
    path: `${prefix}${operation.path.replace(/\{[^}]+\}/g, '1')}`,
    body: operation.requestBody ? JSON.stringify({ name: 'near-miss', categoryId: 1 }) : undefined,
  }))
  await forEach(
    operations.flatMap((op) => nearMissCredentials(server.apiKey).map((credential) => ({ op, credential }))),
    async ({ op, credential }) => {
      const answer = await sendPath(op.method, op.path, credential.authorization, op.body)
      const what = `${op.method} ${op.path} with ${credential.label}`
      // Whatever the status, a request without a valid key that is not refused with 401 got past auth.
      if (answer.status !== 401)
        return add({
          rule: answer.status === 0 ? 'no-response' : 'auth',
          operation: op.operation,
          severity: 'failure',
          section: 'security',
          message: `${what} answered ${answer.status}; it needs 401.`,
        })
      const problem = errorBodyProblem(answer)
      if (problem)
        add({
          ...problem,
          operation: op.operation,
          severity: 'failure',
          section: 'security',
          message: `${what}: ${problem.message}`,
        })
    },
  )
  await forEach(
    operations.flatMap((op) => pathSpellings(op.path).map((spelling) => ({ op, spelling }))),
    async ({ op, spelling }) => {
      const answer = await sendPath(op.method, spelling.path, null, op.body)
      const what = `${op.method} ${spelling.path} (${spelling.label}) without a key`
      if (answer.status >= 200 && answer.status < 300)
        add({
          rule: 'auth',
          operation: op.operation,
          severity: 'failure',
          section: 'security',
          message: `${what} answered ${answer.status}: data without a key.`,
        })
      else if (answer.status >= 500 || answer.status === 0)
        add({
          rule: answer.status === 0 ? 'no-response' : 'server-error',
          operation: op.operation,
          severity: 'failure',
          section: 'security',
          message: `${what} answered ${answer.status}.`,
        })
      else if (spelling.sameUri && answer.status !== 401)
        add({
          rule: 'auth',
          operation: op.operation,
          severity: 'warning',
          section: 'security',
          message: `${what} answered ${answer.status}; by RFC 3986 §6.2.2 it is the same URI, which needs 401.`,
        })
    },
  )

  // Point 4: random, shrinkable sequences against a model of what the contract promises.
  const stateful = await runStatefulModel(httpModelApi(server.baseUrl, server.apiKey), {
    seed: options.seed,
    maxExamples: options.maxExamples,
    namePrefix: 'depth ',
  })
  if (!stateful.ok)
    add({
      rule: stateful.rule,
      operation: stateful.operation,
      severity: 'failure',
      section: 'stateful',
      message: `${stateful.message} (seed ${stateful.seed}; replay: ${stateful.replay.map((line) => clip(line, 100)).join(' ; ')})`,
    })
  return findings
}

/** The rule an unexpected status breaks: no answer, a 5xx, a status not declared, or the wrong declared one. */
function statusRule(operationId: string, status: number): RuleId {
  if (status === 0) return 'no-response'
  if (status >= 500) return 'server-error'
  return declares(operationId, status) ? 'wrong-status' : 'undeclared-status'
}

function declares(operationId: string, status: number): boolean {
  return contract.operation(operationId).responses.some((response) => response.status === String(status))
}

function errorBodyProblem(answer: RawExchange): { rule: RuleId; message: string } | undefined {
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(answer.headers['content-type'] ?? ''))
    return {
      rule: 'content-type',
      message: `${answer.status} has Content-Type "${answer.headers['content-type'] ?? ''}".`,
    }
  if (!contract.validateSchema('Error', answer.json).ok)
    return { rule: 'body-schema', message: `${answer.status} body ${clip(answer.text)} is not an Error.` }
  if ((answer.json as { status?: unknown }).status !== answer.status)
    return {
      rule: 'error-status',
      message: `${answer.status} Error body says status ${JSON.stringify((answer.json as { status?: unknown }).status)}.`,
    }
  return undefined
}

/** How a served pet differs from the 201's pet on the contract's fields (a status the 201 left out may be anything). */
function differs(created: Record<string, unknown>, served: unknown): string | undefined {
  if (typeof served !== 'object' || served === null) return `is ${clip(JSON.stringify(served) ?? 'nothing')}`
  const pet = served as Record<string, unknown>
  for (const field of petFields) {
    if (created[field] === undefined) continue
    if (pet[field] !== created[field])
      return `came back with ${field} ${clip(JSON.stringify(pet[field]) ?? 'absent')}; created with ${clip(JSON.stringify(created[field]))}`
  }
  return undefined
}

async function forEach<T>(items: T[], run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) await run(items[index] as T)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}

function clip(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text
}
