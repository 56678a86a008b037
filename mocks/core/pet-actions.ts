// What listPets, createPet and getPet do to the store once their input is validated.
import type { Int64 } from '../../contract/exact-json.ts'
import type { ExactNewPet, PetStatus } from '../../contract/types.ts'
import { errorResponse } from './error-codes.ts'
import { jsonHeaders, jsonResponse, type MockResponse } from './mock-http.ts'
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
    return { status: 200, headers: jsonHeaders, body: store.listJson(limit, status) }
  },

  createPet: ({ store, input, basePath }) => {
    const sent = input.body as ExactNewPet
    // Only NewPet's fields are stored; a client-sent `id` or any other extra field is ignored.
    const pet = store.tryAdd({
      name: sent.name,
      categoryId: sent.categoryId,
      ...(sent.status === undefined ? {} : { status: sent.status }),
    })
    if (!pet) {
      // 507 Insufficient Storage (RFC 4918 §11.5): the request is fine, the mock has no room left for it.
      return errorResponse(
        'store_full',
        `The mock's store is full (${store.size} pets, ${store.usedBytes} of ${store.budget.maxStoreBytes} bytes); nothing was stored and no pet was lost. Reset it (POST /__mock/reset) or start the mock with a larger --max-store-bytes.`,
      )
    }
    return jsonResponse(201, pet, { location: `${basePath}/pets/${pet.id}` })
  },

  getPet: ({ store, input }) => {
    const id = input.params.petId as Int64
    const pet = store.get(id)
    return pet ? jsonResponse(200, pet) : errorResponse('not_found', `No pet has the id ${id}.`)
  },
}
