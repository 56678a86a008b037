import { contract } from '../../contract/index.ts'
import type { Check } from '../check-context.ts'

const group = 'security'

// A request for each operation, complete but for its key. Bodies and ids are valid, so only the key is wrong.
const newPet = JSON.stringify({ name: 'conformance auth', categoryId: 1 })
const requests = contract.operations.map((operation) => ({
  operation,
  path: Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === 'path')
      .map((parameter) => [parameter.name, 1]),
  ),
  body: operation.requestBody ? newPet : undefined,
}))

// Each credential with the kind of hole it probes: a server with one hole fails one kind, on every operation.
const badKeys: [label: string, fault: string, authorization: (key: string) => string | null][] = [
  ['no Authorization header', 'no credentials', () => null],
  ['a wrong key', 'a bearer token other than the key', () => 'Bearer conformance-wrong-key'],
  ['the key without the Bearer scheme', 'the key outside the Bearer scheme', (key) => key],
  ['the key under the Basic scheme', 'the key outside the Bearer scheme', (key) => `Basic ${key}`],
]

export const authenticationChecks: Check[] = [
  ...requests.flatMap(({ operation, path, body }) =>
    badKeys.map(
      ([label, fault, authorization]): Check => ({
        group,
        name: `${operation.method} ${operation.path} with ${label}: 401 Error`,
        // A server whose auth is broken would create a pet: not in read-only mode.
        writes: operation.method !== 'GET',
        run: async ({ send, target }) => {
          await send(operation.id, {
            intent: 'unauthorized',
            fault,
            path,
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
      await send('createPet', {
        intent: 'unauthorized',
        fault: 'no credentials, with an invalid body',
        authorization: null,
        body: '{"name":',
      })
    },
  },
]
