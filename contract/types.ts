// The contract's schemas as named types (Pet, NewPet, ApiError) over types.gen.ts, and their exact-int64 kin.
import type { Int64 } from './exact-json.ts'
import type { components } from './types.gen.ts'

/** The whole API as openapi-typescript types: `paths` is what openapi-fetch's `createClient<paths>` takes. */
export type { components, operations, paths } from './types.gen.ts'

// Generated from openapi.yaml by `npm run generate`; `npm test` fails when types.gen.ts is stale.
export type Pet = components['schemas']['Pet']
export type NewPet = components['schemas']['NewPet']
export type PetStatus = components['schemas']['PetStatus']
/** The contract's `Error` body (named ApiError so it does not shadow the global Error). */
export type ApiError = components['schemas']['Error']

/**
 * A pet as the toolkit holds it exactly: `categoryId` is a number while it is safe and a bigint beyond
 * ±(2^53−1), as `parseExactJson` reads it (contract/exact-json.ts). `Pet` is what a JSON.parse client sees.
 */
export type ExactPet = Omit<Pet, 'categoryId'> & { categoryId: Int64 }
/** A NewPet read exactly (see ExactPet). */
export type ExactNewPet = Omit<NewPet, 'categoryId'> & { categoryId: Int64 }
