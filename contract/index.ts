// Node reads contract/openapi.yaml; a browser bundle gets its generated copy ("imports" in package.json).
import { contractDocument } from '#contract-document'
import { loadContract } from './load-contract.ts'

/** The loaded Animal Store contract: the document, its operations and compiled validators, read once. */
export const contract = loadContract(contractDocument)

export { ContractError } from './contract-error.ts'
export type { Contract } from './load-contract.ts'
export type { OpenApiDocument } from './openapi-document.ts'
export type { HttpMethod, Operation, OperationParameter, OperationResponse } from './operations.ts'
export type { ApiError, NewPet, Pet, PetStatus } from './types.ts'
export type { Validation, Violation } from './violations.ts'
