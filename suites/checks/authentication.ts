// The 401 checks: bad and near-miss credentials on every operation, and path spellings that dodge auth.
import { contract } from '../../contract/index.ts'
import type { Check } from '../engine/index.ts'
import { nearMissCredentials, pathSpellings } from '../values/index.ts'

const group = 'security'

// A request for each operation, complete but for its key. Bodies and ids are valid, so only the key is wrong.
// Each body is named after its request, so a pet stored from it anyway is traced to it (refusal-side-effects.ts).
const newPet = (runId: string, label: string) =>
  JSON.stringify({ name: `${runId} unauthorized, ${label}`, categoryId: 1 })
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

/**
 * Credentials that nearly work: the key in another case, one character off, an empty or blank bearer
 * token, whitespace variants. Every one needs 401 (Authentication §1, §3). They probe the key comparison,
 * which a server writes once, so they go to one operation of each method (a read and a write); the four
 * plain bad credentials above still go to every operation, where a route that skips or re-implements the
 * check shows. Sending all twenty to every operation cost ~0.03 × of the run's speed target.
 */
const firstOfEachMethod = new Set(
  contract.operations
    .filter((operation, index, all) => all.findIndex((other) => other.method === operation.method) === index)
    .map((operation) => operation.id),
)
const nearMissChecks: Check[] = requests
  .filter(({ operation }) => firstOfEachMethod.has(operation.id))
  .flatMap(({ operation, path, body }) =>
    nearMissCredentials('{key}').map(
      ({ label }): Check => ({
        group,
        name: `${operation.method} ${operation.path} with ${label}: 401 Error`,
        writes: operation.method !== 'GET',
        run: async ({ send, target, fixtures }) => {
          // The labels are the same for every key; the credential itself is made from the real one.
          const credential = nearMissCredentials(target.apiKey).find((candidate) => candidate.label === label)
          await send(operation.id, {
            intent: 'unauthorized',
            fault: label,
            path,
            authorization: credential?.authorization ?? null,
            ...(body === undefined ? {} : { body: body(fixtures.runId, label) }),
          })
        },
      }),
    ),
  )

/**
 * Spellings of each operation's path that a router may treat as the same resource, sent without a key: none
 * may return data. Where RFC 3986 §6.2.2 makes them the same URI, anything but 401 is worth a warning.
 */
const pathSpellingChecks: Check[] = requests.map(({ operation, path, body }) => ({
  group,
  name: `${operation.method} ${operation.path} spelled as a router might also match it, without a key: never data`,
  writes: operation.method !== 'GET',
  async run({ send, target, warn, fixtures }) {
    const basePath = new URL(target.baseUrl).pathname.replace(/\/$/, '')
    const concrete = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => String(path[name] ?? 1))
    const notRefused = new Set<number>()
    // Sent at once: each spelling is judged on its own answer, and none changes what another may answer.
    await Promise.all(
      pathSpellings(`${basePath}${concrete}`).map(async (spelling) => {
        const answer = await send(operation.id, {
          intent: 'no-data',
          fault: `the path ${spelling.label}, without a key`,
          originPath: spelling.path,
          authorization: null,
          ...(body === undefined ? {} : { body: body(fixtures.runId, spelling.label) }),
        })
        // Status 0: the server closed or ignored it, which returns no data either.
        const { status } = answer.response
        if (spelling.sameUri && status !== 401 && status !== 0) notRefused.add(status)
      }),
    )
    // The same words for every operation, so the report says it once per run: a router that matches paths
    // before normalising them does so everywhere (a 2xx among them is a finding of its own).
    if (notRefused.size > 0)
      warn(
        `Without a key, paths RFC 3986 §6.2.2 makes the same URI as an operation's (dot segments, percent-encoded letters, e.g. ${basePath}/%70ets) were answered ${[...notRefused].sort().join(' or ')}, not 401: the router does not normalise paths before matching them.`,
      )
  },
}))

export const authenticationChecks: Check[] = [
  ...requests.flatMap(({ operation, path, body }) =>
    badKeys.map(
      ([label, fault, authorization]): Check => ({
        group,
        name: `${operation.method} ${operation.path} with ${label}: 401 Error`,
        // A server whose auth is broken would create a pet: not in read-only mode.
        writes: operation.method !== 'GET',
        run: async ({ send, target, fixtures }) => {
          await send(operation.id, {
            intent: 'unauthorized',
            fault,
            path,
            authorization: authorization(target.apiKey),
            ...(body === undefined ? {} : { body: body(fixtures.runId, label) }),
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
  ...nearMissChecks,
  ...pathSpellingChecks,
]
