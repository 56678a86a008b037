// The Pact specification 4.0 file as the recorder writes it: synchronous HTTP interactions only.

/** A body as Pact 4 keeps it: JSON held as a value, anything else as text. */
export interface PactBody {
  contentType: string
  encoded: false
  content: unknown
}

/** One matcher of a Pact matching rule (`type`, `equality`, `regex`), as Pact 4 spells them. */
type PactMatcher = { match: 'type'; min?: number } | { match: 'equality' } | { match: 'regex'; regex: string }

/** Matching rules by category (`body`, `header`, ...), each by path (`$.name`, `content-type`). */
export type PactMatchingRules = Record<string, Record<string, { combine: 'AND'; matchers: PactMatcher[] }>>

/** What a provider state handler must set up, with the values it is asked for. */
export interface PactProviderState {
  name: string
  params?: Record<string, unknown>
}

export interface PactRequest {
  method: string
  path: string
  query?: Record<string, string[]>
  headers?: Record<string, string[]>
  body?: PactBody
  /** Values a provider state injects: `path` is rebuilt from the ids the state handler returns. */
  generators?: { path?: { type: 'ProviderState'; expression: string; dataType: 'STRING' } }
}

interface PactResponse {
  status: number
  headers?: Record<string, string[]>
  body?: PactBody
  matchingRules?: PactMatchingRules
}

export interface PactInteraction {
  type: 'Synchronous/HTTP'
  /** Pact 4's interaction key: here a hash of the request's shape, so files from many workers merge. */
  key?: string
  description: string
  providerStates?: PactProviderState[]
  request: PactRequest
  response: PactResponse
  /** Pact 4's free comments: the tests that made this interaction, and what the contract says of it. */
  comments?: { testname?: string; text?: string[] }
}

export interface PactDocument {
  consumer: { name: string }
  provider: { name: string }
  interactions: PactInteraction[]
  metadata: { pactSpecification: { version: '4.0' } } & Record<string, unknown>
}

/** The provider states the recorder names, and the handlers of `pactStateHandlers` set up. */
export const pactStates = {
  /** A pet with the given fields exists; its handler creates one and returns its `id`. */
  petExists: 'a pet exists',
  /** No pet has the id the request names; its handler returns such an `id`. */
  noPet: 'no pet has the id',
} as const
