// Values the checks take from the contract (PetStatus values, getPet's sunset date), not restated in code.
import { contract } from '../../contract/index.ts'
import { isRecord } from '../../contract/openapi-document.ts'

/** The PetStatus values, read from the contract. */
export function statuses(): string[] {
  const schema = contract.document.components?.schemas?.PetStatus
  return isRecord(schema) && Array.isArray(schema.enum) ? schema.enum.map(String) : []
}

/** The getPet sunset date the contract states (`x-sunset`), e.g. `2030-12-05`. */
export function sunsetDate(): string {
  return String(contract.operation('getPet').extensions['x-sunset'] ?? '')
}
