import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupMockServer, writePact } from '../../mocks/node.ts'
import { freshHttpMock, verifierFailures } from './pact-verify.ts'
import { serverA, serverC, startReference } from './reference-servers.ts'
import type { StartedServer } from './serve-reference.ts'

// A frontend's vitest tests against the mock record what they really did; Pact's own Verifier then
// replays that file on servers we did not write the recording for, with the kit's state handlers.
const dir = mkdtempSync(join(tmpdir(), 'pacts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const key = 'web-app-key'
const app = 'http://localhost:4010/v1'
const auth = { authorization: `Bearer ${key}`, accept: 'application/json' }
let pactFile = ''
let driftFile = ''

describe("a frontend's vitest tests against the mock, recorded", () => {
  const mock = setupMockServer({
    seed: 7,
    pets: 12,
    apiKeys: [key],
    record: { consumer: 'web-app', testName: () => expect.getState().currentTestName },
  })
  const orders = setupMockServer({ apiKeys: [key], record: { consumer: 'orders-page' } })
  beforeAll(() => mock.listen())
  afterAll(async () => {
    mock.server.close()
    pactFile = await writePact(mock.api, dir)
  })

  it('lists the available pets', async () => {
    const response = await fetch(`${app}/pets?status=available&limit=5`, { headers: auth })
    expect(response.status).toBe(200)
    expect(((await response.json()) as unknown[]).length).toBeGreaterThan(0)
  })

  it('adds a pet and shows it', async () => {
    const created = await fetch(`${app}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Biscuit', categoryId: 2, status: 'pending' }),
    })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: number }
    const shown = await fetch(`${app}/pets/${id}`, { headers: auth })
    expect(await shown.json()).toMatchObject({ id, name: 'Biscuit' })
  })

  it('says so when a pet is gone', async () => {
    expect((await fetch(`${app}/pets/987654321`, { headers: auth })).status).toBe(404)
  })

  it('records the orders page relying on the mock answering 204, which the contract does not state', async () => {
    mock.server.close()
    orders.listen()
    expect((await fetch(`${app}/store/orders`, { headers: auth })).status).toBe(204)
    orders.server.close()
    mock.listen()
    driftFile = await writePact(orders.api, dir)
  })
})

describe("the recorded file, verified by Pact's own Verifier with the kit's state handlers", () => {
  const servers: Record<string, () => Promise<StartedServer>> = {
    'the HTTP mock': () => freshHttpMock('verifier-proof-key-3'),
    'reference A (random 63-bit ids, newest first)': () => startReference(serverA),
    'reference C (categoryIds beyond 2^60, names from every plane)': () => startReference(serverC),
  }

  it('names every interaction after its test, keeps ids to provider states, and never the key', () => {
    const text = readFileSync(pactFile, 'utf8')
    expect(text).not.toContain(key)
    const pact = JSON.parse(text)
    expect(pact.metadata.pactSpecification.version).toBe('4.0')
    const byTest = Object.fromEntries(
      pact.interactions.map((i: { comments?: { testname?: string } }) => [i.comments?.testname, i]),
    )
    expect(Object.keys(byTest).sort()).toEqual([
      "a frontend's vitest tests against the mock, recorded > adds a pet and shows it",
      "a frontend's vitest tests against the mock, recorded > lists the available pets",
      "a frontend's vitest tests against the mock, recorded > says so when a pet is gone",
    ])
    const states = pact.interactions.map((i: { providerStates?: { name: string }[] }) =>
      (i.providerStates ?? []).map((state) => state.name).join(),
    )
    expect(states.sort()).toEqual(['', 'a pet exists', 'a pet exists', 'no pet has the id'])
  })

  for (const [name, start] of Object.entries(servers)) {
    it(`passes against ${name}`, async () => {
      const server = await start()
      try {
        expect(await verifierFailures(pactFile, server)).toEqual([])
      } finally {
        await server.close()
      }
    })
  }

  it('fails the interactions a server breaks: categoryId sent as a string, as some JVM setups do', async () => {
    const server = await startReference(serverA, (correct) => ({
      present: (pet) => ({ ...correct.present(pet), categoryId: String(pet.categoryId) }),
    }))
    try {
      expect(await verifierFailures(pactFile, server)).toEqual([
        expect.stringContaining('adds a pet and shows it — createPet'),
        expect.stringContaining('adds a pet and shows it — getPet'),
        expect.stringContaining('lists the available pets'),
      ])
    } finally {
      await server.close()
    }
  })

  it('fails, on a server that keeps the contract, the answer the frontend took from the mock alone', async () => {
    const server = await startReference(serverA)
    try {
      expect(await verifierFailures(driftFile, server)).toEqual([
        'GET /store/orders: GET /v1/store/orders → 204',
      ])
    } finally {
      await server.close()
    }
  })
})
