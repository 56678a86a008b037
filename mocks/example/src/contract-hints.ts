// The example form's hints (statuses, required fields, limit bounds), read from the contract, not copied.
import { contract } from '../../../contract/index.ts'
import { followReference, isRecord } from '../../../contract/openapi-document.ts'

/** What the form can tell a person before sending, read from the contract rather than restated. */
export interface FormHints {
  statuses: string[]
  required: string[]
  limit: { min: number; max: number; default: number }
}

export function formHints(): FormHints {
  const schemas = contract.document.components?.schemas ?? {}
  const status = schemas.PetStatus
  const newPet = schemas.NewPet
  const limit = contract.operation('listPets').parameters.find((parameter) => parameter.name === 'limit')
  const found = limit ? followReference(contract.document, limit.schemaPointer).value : undefined
  const limitSchema = isRecord(found) ? found : {}
  return {
    statuses: isRecord(status) && Array.isArray(status.enum) ? status.enum.map(String) : [],
    required: isRecord(newPet) && Array.isArray(newPet.required) ? newPet.required.map(String) : [],
    limit: {
      min: Number(limitSchema.minimum ?? 1),
      max: Number(limitSchema.maximum ?? 100),
      default: Number(limitSchema.default ?? 20),
    },
  }
}
