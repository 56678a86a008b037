import type { components } from './types.gen.ts'

/** The whole API as openapi-typescript types: `paths` is what openapi-fetch's `createClient<paths>` takes. */
export type { components, operations, paths } from './types.gen.ts'

// Generated from openapi.yaml by `npm run generate`; `npm test` fails when types.gen.ts is stale.
export type Pet = components['schemas']['Pet']
export type NewPet = components['schemas']['NewPet']
export type PetStatus = components['schemas']['PetStatus']
/** The contract's `Error` body (named ApiError so it does not shadow the global Error). */
export type ApiError = components['schemas']['Error']
