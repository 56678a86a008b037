import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { writePact } from '../../mocks/node.ts'
import { runConformanceCommand } from './conformance-command.ts'
import { freshHttpMock, verifierFailures } from './pact-verify.ts'
import { serverA, startReference } from './reference-servers.ts'
import type { StartedServer } from './serve-reference.ts'

// The gate's --pact replays a recorded file on any server and must agree with Pact's own Verifier on which
// interactions hold, on passing and failing servers alike; drift where the contract holds is its own kind.
const dir = mkdtempSync(join(tmpdir(), 'pact-gate-'))
let file = ''
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeAll(async () => {
  // A consumer's real use, recorded: a list, a create, a read of what it created, a read of a missing pet,
  // and the orders page, whose 204 is the mock's own choice (the contract states no answer).
  const key = 'consumer-key'
  const api = createMockApi({ seed: 5, pets: 8, apiKeys: [key], record: { consumer: 'web-app' } })
  const send = (method: string, path: string, query = '', body?: string) =>
    api.handle({
      method,
      path,
      query,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body } : {}),
    })
  send('GET', '/v1/pets', 'status=available')
  const created = JSON.parse(
    send('POST', '/v1/pets', '', '{"name":"Rex","categoryId":3,"status":"sold"}').body ?? '{}',
  )
  send('GET', `/v1/pets/${created.id}`)
  send('GET', '/v1/pets/424242')
  send('GET', '/v1/store/orders')
  file = await writePact(api, dir)
})

/** The gate's run with --pact: its exit code, the interactions it failed, and the rules of its findings. */
async function gate(server: StartedServer, extra: string[] = []) {
  const run = await runConformanceCommand(['--base-url', server.baseUrl, '--pact', file, ...extra], {
    env: { CONFORMANCE_API_KEY: server.apiKey },
  })
  const interactions = (run.report?.checks ?? []).filter((check) => check.group === 'consumer web-app')
  return {
    code: run.code,
    output: run.output,
    reportDir: run.reportDir,
    failed: interactions
      .filter((check) => check.outcome === 'failed')
      .map((check) => check.name)
      .sort(),
    replayed: interactions.length,
    rules: [
      ...new Set((run.report?.findings ?? []).map((finding) => `${finding.rule} ${finding.kind}`)),
    ].sort(),
  }
}

const servers: Record<string, () => Promise<StartedServer>> = {
  'the HTTP mock': () => freshHttpMock('gate-proof-key-71'),
  'reference A, which keeps the contract and answers orders with a list': () => startReference(serverA),
  'reference A sending categoryId as a string': () =>
    startReference(serverA, (correct) => ({
      present: (pet) => ({ ...correct.present(pet), categoryId: String(pet.categoryId) }),
    })),
}

describe("the gate's --pact agrees with Pact's own Verifier", () => {
  for (const [name, start] of Object.entries(servers)) {
    it(`on ${name}`, async () => {
      const server = await start()
      try {
        const expected = await verifierFailures(file, server)
        const judged = await gate(server)
        expect(judged.replayed).toBe(5)
        expect(judged.failed, judged.output).toEqual(expected)
        expect(judged.code).toBe(expected.length === 0 ? 0 : 1)
      } finally {
        await server.close()
      }
    }, 120_000)
  }

  it('names drift where the contract holds as consumer drift, and --pact-drift warn makes it a warning', async () => {
    const server = await startReference(serverA)
    try {
      const strict = await gate(server)
      expect(strict.failed).toEqual(['GET /store/orders: GET /v1/store/orders → 204'])
      expect(strict.rules).toEqual(['consumer-drift consumer'])
      expect(strict.output).toMatch(/status 200, where the recording has 204/)
      // The deprecated call is listed in every report, with its removal date and replacement.
      const line =
        'consumer web-app calls getPet in 2 interactions; removal 2030-12-05; use GET /pets?status=…'
      expect(strict.output).toContain(line)
      for (const report of ['summary.md', 'conformance.html', 'conformance.json', 'junit.xml'])
        expect(readFileSync(join(strict.reportDir, report), 'utf8'), report).toContain(
          report === 'junit.xml' ? `deprecated: ${line}` : line,
        )
      const warned = await gate(server, ['--pact-drift', 'warn'])
      expect(warned.code).toBe(0)
      expect(warned.output).toMatch(/\[consumer consumer-drift, warn\]/)
    } finally {
      await server.close()
    }
  }, 120_000)

  it('skips, read-only, the interactions that would write, and says which', async () => {
    const server = await startReference(serverA)
    try {
      const run = await runConformanceCommand(['--base-url', server.baseUrl, '--pact', file, '--read-only'], {
        env: { CONFORMANCE_API_KEY: server.apiKey },
      })
      const skipped = (run.report?.checks ?? [])
        .filter((check) => check.group === 'consumer web-app' && check.outcome === 'not-checked')
        .map((check) => check.name.replace(/:.*/, ''))
        .sort()
      expect(skipped).toEqual(['createPet', 'getPet', 'listPets'])
    } finally {
      await server.close()
    }
  }, 120_000)

  it('refuses a file that is no Pact file with exit 2, before any request', async () => {
    const run = await runConformanceCommand(
      ['--base-url', 'http://127.0.0.1:9/v1', '--pact', join(dir, 'missing.json')],
      {
        env: { CONFORMANCE_API_KEY: 'k' },
      },
    )
    expect(run.code).toBe(2)
    expect(run.output).toMatch(/--pact .*missing\.json: cannot be read \(ENOENT\)/)
  })
})
