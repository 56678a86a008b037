// One call per operation whose responses the contract leaves undefined, judged only for server errors.
import { contract } from '../../contract/index.ts'
import type { Check } from '../engine/index.ts'

/**
 * Operations the contract names but whose responses it does not define (GET /store/orders): called once
 * with a valid key, where only "no server error" is defined. A 501 says the server does not implement it,
 * which the contract allows: a warning (send.ts), never a finding.
 */
export const openOperationChecks: Check[] = contract.operations
  .filter((operation) => !operation.declaresResponses)
  .map((operation) => ({
    group: operation.id,
    name: `${operation.method} ${operation.path} with a valid key: no server error (the contract defines no other answer)`,
    run: async ({ send }) => {
      await send(operation.id, { intent: 'valid' })
    },
  }))
