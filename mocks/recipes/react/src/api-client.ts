// The React recipe's API client: openapi-fetch typed by the contract's `paths`, with the key on every call.
import type { paths } from 'animal-store-contract-kit/contract'
import createClient from 'openapi-fetch'

/**
 * The Animal Store API, typed from the contract. `baseUrl` must be absolute (`https://…/v1`): Node's fetch,
 * which tests in jsdom use, cannot resolve `/v1` against a page (`Failed to parse URL from /v1/pets`).
 */
export function createApiClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({
    baseUrl,
    headers: { authorization: `Bearer ${apiKey}` },
    // Looked up on each call, so a mock installed after the client was created (MSW's listen()) answers.
    fetch: (request) => globalThis.fetch(request),
  })
}

export type ApiClient = ReturnType<typeof createApiClient>
