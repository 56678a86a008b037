// What the contract says of one recorded exchange: a request it does not allow, an answer it does not promise.
import type { Contract } from '../../contract/index.ts'
import { isJsonMediaType, parseJsonBody } from './json-body.ts'
import type { RecordedExchange } from './pact-interaction.ts'
import { validateRequest } from './validate-request.ts'

/**
 * Why a consumer's test should not rely on this exchange as recorded, in words, or nothing. The mock
 * answers many things the contract leaves open; a server may answer them otherwise and still keep it.
 */
export function contractNotes(contract: Contract, exchange: RecordedExchange): string[] {
  const { operation, request, response, pathParams } = exchange
  const notes: string[] = []
  const validated = validateRequest(contract, operation, request, pathParams)
  if (!validated.ok)
    notes.push(`the contract does not allow this request: ${errorMessage(validated.response.body)}`)
  const status = String(response.status)
  const declared = operation.responses.map((declared) => declared.status)
  const promised =
    operation.responses.find((declared) => declared.status === status) ??
    operation.responses.find((declared) => declared.status === `${status[0]}XX`) ??
    operation.defaultResponse
  if (!operation.declaresResponses) {
    notes.push(
      `the contract states no answer for ${operation.id}: the mock's ${status} is its own choice, and a server that keeps the contract may answer otherwise`,
    )
  } else if (promised === undefined) {
    notes.push(
      `the contract does not promise ${status} for ${operation.id} (it declares ${declared.join(', ')})`,
    )
  } else if (
    promised.schemaPointer !== undefined &&
    response.body !== undefined &&
    isJsonMediaType(response.headers['content-type'] ?? '')
  ) {
    const parsed = parseJsonBody(response.body)
    const validation = parsed.ok
      ? contract.validateResponseBody(operation.id, status, parsed.value)
      : undefined
    if (validation && !validation.ok)
      notes.push(
        `the contract does not promise this answer: ${validation.errors.map((error) => error.message).join('; ')}`,
      )
  }
  return notes
}

function errorMessage(body: string | undefined): string {
  const parsed = body === undefined ? undefined : parseJsonBody(body)
  const message = parsed?.ok && typeof (parsed.value as { message?: unknown })?.message === 'string'
  return message ? String((parsed.value as { message: string }).message) : 'refused'
}
