// Checks that a keyless invalid query or path id still gets 401: the key is checked before validation.
import type { Check } from '../engine/index.ts'
import { ensure } from '../engine/index.ts'

/**
 * Authentication §1-3: every operation needs the key, so a request without one gets 401 whatever else is
 * wrong with it. A validator mounted before the key check (an Express route listing its query validator
 * before `requireAuth`) answers 400 instead, and tells a caller without a key what the API accepts. The body
 * case is checked in authentication.ts; these are the query and the path. Each is judged only once the same
 * operation answers a keyless valid request with 401, so a server without any key check is one finding.
 */
const cases = [
  {
    operation: 'listPets',
    label: 'an invalid query (limit=0)',
    fault: 'no credentials, with an invalid query',
    valid: { query: { limit: 3 } },
    invalid: { query: { limit: 0 } },
  },
  {
    operation: 'getPet',
    label: 'an invalid path id (not-a-number)',
    fault: 'no credentials, with an invalid path id',
    valid: { path: { petId: 1 } },
    invalid: { path: { petId: 'not-a-number' } },
  },
] as const

export const authBeforeValidationChecks: Check[] = cases.map(
  ({ operation, label, fault, valid, invalid }) => ({
    group: 'security',
    name: `${operation} without a key and with ${label}: 401 Error (the key is checked first)`,
    async run({ send }) {
      const plain = await send(operation, {
        intent: 'unauthorized',
        fault: 'no credentials',
        authorization: null,
        ...valid,
      })
      if (plain.response.status !== 401) return
      const answer = await send(operation, { intent: 'no-data', authorization: null, ...invalid })
      ensure(
        answer.response.status === 401,
        { rule: 'auth', where: fault },
        `${operation} without a key and with ${label} answered ${answer.response.status}, though without a key and a valid request it answers 401: the request is validated before the key is checked, so a caller without a key learns what the API accepts.`,
        answer,
      )
    },
  }),
)
