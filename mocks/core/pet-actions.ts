import type { NewPet, PetStatus } from '../../contract/types.ts'
import { errorResponse } from './error-codes.ts'
import { jsonResponse, type MockResponse } from './mock-http.ts'

const jsonHeaders = { 'content-type': 'application/json' }

// Serializing a page is most of a list request's cost, and frontends ask for the same page again and
// again. Pages are cached per store until its next write; at most 100 limits × 4 filters are kept.
const pageCaches = new WeakMap<PetStore, { version: number; pages: Map<string, string> }>()

function listPage(store: PetStore, limit: number, status: PetStatus | undefined): string {
  let cache = pageCaches.get(store)
  if (!cache || cache.version !== store.version) {
    cache = { version: store.version, pages: new Map() }
    pageCaches.set(store, cache)
  }
  const key = `${limit}:${status ?? ''}`
  let page = cache.pages.get(key)
  if (page === undefined) {
    page = JSON.stringify(store.list(limit, status))
    cache.pages.set(key, page)
  }
  return page
}

import type { PetStore } from './pet-store.ts'
import type { RequestInput } from './validate-request.ts'

export interface ActionContext {
  store: PetStore
  input: RequestInput
  /** The path prefix of the API, for Location headers (`/v1`). */
  basePath: string
}

/** What each operation of the contract does to the store, by operationId. Inputs are already validated. */
export const petActions: Record<string, (context: ActionContext) => MockResponse> = {
  listPets: ({ store, input }) => {
    const limit = input.params.limit as number
    const status = input.params.status as PetStatus | undefined
    return { status: 200, headers: jsonHeaders, body: listPage(store, limit, status) }
  },

  createPet: ({ store, input, basePath }) => {
    const sent = input.body as NewPet
    // Only NewPet's fields are stored; a client-sent `id` or any other extra field is ignored.
    const pet = store.add({
      name: sent.name,
      categoryId: sent.categoryId,
      ...(sent.status === undefined ? {} : { status: sent.status }),
    })
    return jsonResponse(201, pet, { location: `${basePath}/pets/${pet.id}` })
  },

  getPet: ({ store, input }) => {
    const id = input.params.petId as number
    const pet = store.get(id)
    return pet ? jsonResponse(200, pet) : errorResponse('not_found', `No pet has the id ${id}.`)
  },
}
