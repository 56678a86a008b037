import { contract } from '../../contract/index.ts'
import type { Check } from '../check-context.ts'
import { validValue } from '../negative-bodies.ts'

const group = 'authentication'

// A request for each operation, complete but for its key. Bodies and ids are valid, so only the key is wrong.
const newPet = JSON.stringify({ name: 'conformance auth', categoryId: 1 })
const requests = contract.operations.map((operation) => ({
  operation,
  path: operation.path.replace(/\{[^}]+\}/g, String(validValue({ type: 'integer' }))),
  body: operation.requestBody ? newPet : undefined,
}))

const badKeys: [string, (key: string) => string | null][] = [
  ['no Authorization header', () => null],
  ['a wrong key', () => 'Bearer conformance-wrong-key'],
  ['the key without the Bearer scheme', (key) => key],
  ['the key under the Basic scheme', (key) => `Basic ${key}`],
]

export const authenticationChecks: Check[] = [
  ...requests.flatMap(({ operation, path, body }) =>
    badKeys.map(
      ([label, authorization]): Check => ({
        group,
        name: `${operation.method} ${operation.path} with ${label}: 401 Error`,
        // A server whose auth is broken would create a pet: not in read-only mode.
        writes: operation.method !== 'GET',
        run: async ({ send, target }) => {
          await send(operation.id, operation.method, path, {
            intent: 'unauthorized',
            authorization: authorization(target.apiKey),
            ...(body === undefined ? {} : { body }),
          })
        },
      }),
    ),
  ),
  {
    group,
    name: 'POST /pets with no key and an invalid body: 401 Error (the key is checked first)',
    writes: true,
    run: async ({ send }) => {
      await send('createPet', 'POST', '/pets', {
        intent: 'unauthorized',
        authorization: null,
        body: '{"name":',
      })
    },
  },
]
