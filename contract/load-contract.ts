// Assembles the Contract (document, operations, validators) from parsed data; pure, so any runtime can.
import type { ValidateFunction } from 'ajv'
import { ContractError } from './contract-error.ts'
import type { OpenApiDocument } from './openapi-document.ts'
import { listOperations, type Operation } from './operations.ts'
import { type ContractValidators, createValidators } from './validators.ts'

/** Everything the rest of the toolkit takes from the contract. */
export interface Contract extends ContractValidators {
  document: OpenApiDocument
  operations: readonly Operation[]
  /** The operation with this id (`listPets`, or `GET /store/orders` for an unnamed one); throws if unknown. */
  operation(id: string): Operation
}

/**
 * Builds the contract's operations and validators from a parsed document and its validators compiled
 * ahead of time (contract/validators.gen.ts). Pure: no I/O.
 */
export function loadContract(
  document: OpenApiDocument,
  compiledValidators: Readonly<Record<string, ValidateFunction>>,
): Contract {
  const operations = listOperations(document)
  const byId = new Map(operations.map((operation) => [operation.id, operation]))
  return {
    document,
    operations,
    operation(id) {
      const operation = byId.get(id)
      if (!operation) {
        throw new ContractError(
          `Failed to find operation "${id}": the contract has ${[...byId.keys()].join(', ')}. Check the spelling.`,
        )
      }
      return operation
    },
    ...createValidators(operations, compiledValidators),
  }
}
