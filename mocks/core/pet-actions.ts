import type { NewPet, PetStatus } from '../../contract/types.ts'
import { errorResponse } from './error-codes.ts'
import { jsonResponse, type MockResponse } from './mock-http.ts'
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
  listPets: ({ store, input }) =>
    jsonResponse(200, store.list(input.params.limit as number, input.params.status as PetStatus | undefined)),

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
