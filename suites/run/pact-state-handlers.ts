// The provider states of the kit's recorded Pact files, set up through the API itself: for Pact's own Verifier.
import { randomBytes } from 'node:crypto'
import { parseExactJson, stringifyExactJson } from '../../contract/index.ts'
import { pactStates } from '../../mocks/core/pact-document.ts'
import { unlikelyId } from '../checks/index.ts'
import { boundedRequest } from '../network/index.ts'

export interface PactStateOptions {
  /** The server's API base URL, with its `/v1`, e.g. `https://staging.example.com/v1`. */
  baseUrl: string
  apiKey: string
  /** Pets created for a state are named `<prefix>-<6 hex> …`, as the conformance run tags its own. */
  namePrefix?: string
  /** One request's deadline, the body included (default 10 s). */
  requestTimeoutMs?: number
}

/** A state handler as Pact's Verifier takes it: the state's params in, the values to inject out. */
export type PactStateHandler = (params?: unknown) => Promise<Record<string, string> | undefined>

// Checked, then stepped down from the id no pet plausibly has (suites/checks/stateful-model.ts says why).
const maxIdTries = 5

/**
 * Handlers for every provider state the kit's recorder names, for `new Verifier({ stateHandlers })` of
 * `@pact-foundation/pact`: "a pet exists" creates the pet with the state's fields and returns its `id`
 * (as text, exact to 64 bits); "no pet has the id" returns an id the server answers 404 for.
 * @example new Verifier({ providerBaseUrl, pactUrls, stateHandlers: pactStateHandlers({ baseUrl, apiKey }), customProviderHeaders: [`Authorization: Bearer ${apiKey}`] })
 */
export function pactStateHandlers(options: PactStateOptions): Record<string, PactStateHandler> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const prefix = `${options.namePrefix ?? 'conformance'}-${randomBytes(3).toString('hex')}`
  const send = (method: string, path: string, body?: string) =>
    boundedRequest(
      `${baseUrl}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      },
      {
        requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
        maxResponseBytes: 1024 * 1024,
        runDeadline: Date.now() + 60_000,
      },
    )
  return {
    [pactStates.petExists]: async (params) => {
      const fields = typeof params === 'object' && params !== null ? { ...params } : {}
      const name = (fields as { name?: unknown }).name
      const body = stringifyExactJson({
        ...fields,
        name: `${prefix} ${typeof name === 'string' ? name : 'pet'}`,
      })
      const outcome = await send('POST', '/pets', body)
      // The server's body is not shown: it is untrusted, and Pact prints what a handler throws.
      if (!outcome.ok)
        throw new Error(
          `Failed to set up "${pactStates.petExists}": POST /pets got no answer (${outcome.kind}).`,
        )
      const id = idOf(outcome.response.body)
      if (outcome.response.status < 200 || outcome.response.status > 299 || id === undefined)
        throw new Error(
          `Failed to set up "${pactStates.petExists}": POST /pets answered ${outcome.response.status}${id === undefined ? ' without an integer id' : ''}; run the conformance suite against this server to see why.`,
        )
      return { id }
    },
    [pactStates.noPet]: async () => {
      for (let id = unlikelyId; id > unlikelyId - maxIdTries; id--) {
        const outcome = await send('GET', `/pets/${id}`)
        if (outcome.ok && outcome.response.status === 404) return { id: String(id) }
      }
      throw new Error(
        `Failed to set up "${pactStates.noPet}": GET /pets/<id> answered no 404 for ${maxIdTries} unlikely ids.`,
      )
    },
  }
}

/** The `id` of a JSON body, as exact text (a 63-bit id stays whole), or undefined. */
function idOf(body: string): string | undefined {
  try {
    const value = parseExactJson(body) as { id?: unknown }
    const id = value?.id
    return typeof id === 'bigint' || (typeof id === 'number' && Number.isInteger(id)) ? String(id) : undefined
  } catch {
    return undefined
  }
}
