import { contract } from '../../../contract/index.ts'
import { isRecord } from '../../../contract/openapi-document.ts'

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
  const limitSchema = limit ? resolvePointer(limit.schemaPointer) : {}
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

function resolvePointer(pointer: string): Record<string, unknown> {
  let value: unknown = contract.document
  for (const segment of pointer.replace(/^#\//, '').split('/')) {
    value = isRecord(value) ? value[segment.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined
  }
  return isRecord(value) ? value : {}
}
