import { loadContract } from './load-contract.ts'
// The YAML as a module (`npm run generate`): browsers and the built package cannot read the file, and
// one path for every runtime keeps them identical. npm test fails while it differs from the YAML.
import { openapiDocument } from './openapi.gen.ts'
// Its validators, compiled by the same command from the same YAML: npm test fails while they differ.
import { compiledValidators } from './validators.gen.ts'

/** The loaded Animal Store contract: the document, its operations and compiled validators, built once. */
export const contract = loadContract(openapiDocument, compiledValidators)

export { ContractError } from './contract-error.ts'
export type { Int64 } from './exact-json.ts'
export { parseExactJson, stringifyExactJson } from './exact-json.ts'
export type { Contract } from './load-contract.ts'
export type { OpenApiDocument } from './openapi-document.ts'
export type { HttpMethod, Operation, OperationParameter, OperationResponse } from './operations.ts'
export type {
  ApiError,
  components,
  ExactNewPet,
  ExactPet,
  NewPet,
  operations,
  Pet,
  PetStatus,
  paths,
} from './types.ts'
export type { SchemaViolation, Validation, Violation } from './violations.ts'
