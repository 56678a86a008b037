// A recorded consumer's interactions (--pact FILE) as checks: states set up through the API, judged by the contract and the recording.
import { contract, stringifyExactJson } from '../../contract/index.ts'
import { deprecatedUse, deprecatedUseLine } from '../../mocks/core/deprecated-use.ts'
import { type PactInteraction, pactStates } from '../../mocks/core/pact-document.ts'
import { basePathOf, createRouter } from '../../mocks/core/route.ts'
import { validateRequest } from '../../mocks/core/validate-request.ts'
import { type Check, type CheckContext, CheckSkipped, ensure, type LoadedPact } from '../engine/index.ts'
import { expectationMismatches } from '../judging/index.ts'
// An id no pet plausibly has: the one the stateful model uses for a pet that does not exist.
import { unlikelyId } from './stateful-model.ts'

const basePath = basePathOf(contract)
const route = createRouter(contract)

/**
 * One check per recorded interaction, grouped by consumer. Each sets up its provider states through the
 * API (a create, accounted like every write), sends the recorded request and is judged twice: by the
 * contract, as every exchange is, and by the recording (status, content type, body under its matching
 * rules). The recording is judged only where the contract held: a contract finding is the root cause, and
 * the drift it causes is not reported again.
 */
export function pactChecks(pacts: readonly LoadedPact[]): Check[] {
  return pacts.flatMap((pact) =>
    pact.interactions.map((interaction) => ({
      group: `consumer ${pact.consumer}`,
      name: interaction.description,
      writes: needsWrites(interaction),
      run: (context: CheckContext) => replay(context, pact.consumer, interaction),
    })),
  )
}

/** A consumer's calls of deprecated operations, as every report of the run lists them. */
export interface ConsumerDeprecatedUse {
  consumer: string
  /** "consumer web-app calls getPet in 3 interactions (tests: …); removal 2030-12-05; use GET /pets?status=…" */
  line: string
  /** The interactions (check names) that make the call. */
  interactions: string[]
}

/** The deprecated operations the recorded interactions call, per consumer, with their sunset and replacement. */
export function pactDeprecatedUse(pacts: readonly LoadedPact[]): ConsumerDeprecatedUse[] {
  return pacts.flatMap((pact) => {
    const routed = pact.interactions.flatMap((interaction) => {
      const operation = operationOf(interaction)
      return operation?.deprecated
        ? [
            {
              operation,
              tests: interaction.comments?.testname ? [interaction.comments.testname] : [],
              interaction,
            },
          ]
        : []
    })
    return deprecatedUse(routed).map((use) => ({
      consumer: pact.consumer,
      line: deprecatedUseLine(pact.consumer, use),
      interactions: routed
        .filter((entry) => entry.operation.id === use.operation)
        .map((entry) => entry.interaction.description),
    }))
  })
}

/** The contract operation a recorded request is for, its path template from the state generator if any. */
function operationOf(interaction: PactInteraction) {
  const generator = interaction.request.generators?.path
  const path = (generator?.expression ?? interaction.request.path).replace(/\$\{\w+\}/g, '1')
  if (!path.startsWith(`${basePath}/`)) return undefined
  const match = route(interaction.request.method.toUpperCase(), path.slice(basePath.length))
  return match.kind === 'operation' ? match.operation : undefined
}

function needsWrites(interaction: PactInteraction): boolean {
  const method = interaction.request.method.toUpperCase()
  return (
    !['GET', 'HEAD', 'OPTIONS'].includes(method) ||
    (interaction.providerStates ?? []).some((state) => state.name === pactStates.petExists)
  )
}

async function replay(context: CheckContext, consumer: string, interaction: PactInteraction): Promise<void> {
  const injected = await setUpStates(context, interaction)
  const request = interaction.request
  const generator = request.generators?.path
  const path =
    generator?.type === 'ProviderState'
      ? generator.expression.replace(/\$\{(\w+)\}/g, (whole, name: string) => injected[name] ?? whole)
      : request.path
  const match = path.startsWith(`${basePath}/`)
    ? route(request.method.toUpperCase(), path.slice(basePath.length))
    : undefined
  if (match?.kind !== 'operation')
    throw new CheckSkipped(
      `${request.method} ${path} is no operation of the contract: nothing to replay it against.`,
    )
  const query = new URLSearchParams()
  for (const [name, values] of Object.entries(request.query ?? {}))
    for (const value of values) query.append(name, value)
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([name, values]) => [name.toLowerCase(), values.join(', ')]),
  )
  const body =
    request.body === undefined
      ? undefined
      : typeof request.body.content === 'string'
        ? request.body.content
        : stringifyExactJson(request.body.content)
  // What the contract makes of the recorded request decides what a conforming answer is.
  const allowed = validateRequest(
    contract,
    match.operation,
    {
      method: request.method,
      path,
      query: query.toString(),
      headers,
      ...(body === undefined ? {} : { body }),
    },
    match.pathParams,
  ).ok
  const exchange = await context.send(match.operation.id, {
    intent: allowed ? 'valid' : 'invalid',
    ...(allowed ? {} : { fault: `consumer ${consumer} request` }),
    path: match.pathParams,
    ...(query.size > 0 ? { query: query.toString() } : {}),
    headers,
    ...(body === undefined ? {} : { body }),
  })
  // A contract finding on this exchange is the root cause; judging the recording too would report it twice.
  if (exchange.violations.length > 0) return
  const mismatches = expectationMismatches(
    interaction.response,
    exchange.response,
    'json' in exchange ? { value: exchange.json } : undefined,
  )
  ensure(
    mismatches.length === 0,
    { rule: 'consumer-drift', where: `consumer ${consumer}: ${interaction.description}` },
    `The server keeps the contract here, but not what consumer ${consumer} recorded on the mock in "${interaction.description}": ${mismatches
      .map((mismatch) => `${mismatch.where}: ${mismatch.message}`)
      .join('; ')}.`,
    exchange,
  )
}

/** Sets up the interaction's provider states through the API; the values they inject (`id`). */
async function setUpStates(
  context: CheckContext,
  interaction: PactInteraction,
): Promise<Record<string, string>> {
  const injected: Record<string, string> = {}
  for (const state of interaction.providerStates ?? []) {
    if (state.name === pactStates.noPet) injected.id = String(unlikelyId)
    else if (state.name === pactStates.petExists) {
      const fields = { ...(state.params ?? {}) }
      const name = typeof fields.name === 'string' ? fields.name : 'pet'
      const created = await context.send('createPet', {
        intent: 'valid',
        body: stringifyExactJson({ ...fields, name: `${context.fixtures.runId} ${name}` }),
      })
      const id = (created.json as { id?: unknown } | undefined)?.id
      if (created.response.status >= 300 || (typeof id !== 'number' && typeof id !== 'bigint'))
        throw new CheckSkipped(
          `Its state "${state.name}" could not be set up: POST /pets answered ${created.response.status}${created.violations.length ? ' (see the createPet findings)' : ''}.`,
        )
      injected.id = String(id)
    } else {
      throw new CheckSkipped(
        `Its provider state "${state.name}" is not one the kit sets up (${Object.values(pactStates).join(', ')}).`,
      )
    }
  }
  return injected
}
