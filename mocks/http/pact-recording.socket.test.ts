import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { freshHttpMock, verifierFailures } from '../../suites/proof/pact-verify.ts'
import { serverA, startReference } from '../../suites/proof/reference-servers.ts'
import { startMockProcess } from '../proof/start-mock-process.ts'

const dir = mkdtempSync(join(tmpdir(), 'http-pacts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// `npm start -- --record DIR --consumer NAME`: every session's traffic goes into one Pact file, written on
// demand and again when the mock is stopped by a signal, with the deprecated calls named on the way out.
it('records every session into one Pact file, written on POST /__mock/pact and on SIGTERM', async () => {
  const key = 'http-recording-key'
  const mock = await startMockProcess(['--api-key', key, '--record', dir, '--consumer', 'web-app'])
  const file = join(dir, 'web-app-animal-store.json')
  const get = (path: string, session: string, test: string) =>
    fetch(`${mock.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${key}`, 'x-mock-session': session, 'x-mock-test': test },
    })
  expect((await get('/pets?status=sold', 'worker-1', 'lists sold pets')).status).toBe(200)
  expect((await get('/pets/1', 'worker-2', 'shows one pet')).status).toBe(200)

  const shown = await (await fetch(`${mock.origin}/__mock/pact`)).json()
  expect(shown.interactions).toHaveLength(2)
  const written = await fetch(`${mock.origin}/__mock/pact`, { method: 'POST' })
  expect(await written.json()).toEqual({ file, interactions: 2 })
  expect(JSON.parse(readFileSync(file, 'utf8')).interactions).toHaveLength(2)

  expect((await get('/pets/2', 'worker-1', 'shows another pet')).status).toBe(200)
  expect((await get('/pets', 'worker-1', 'lists pets')).status).toBe(200)
  expect(await mock.stop()).toBe(0)
  const pact = JSON.parse(readFileSync(file, 'utf8'))
  expect(pact.interactions.map((interaction: { description: string }) => interaction.description)).toEqual([
    'lists sold pets — listPets: GET /v1/pets?status=sold → 200',
    'shows one pet — getPet: GET /v1/pets/{petId} → 200',
    'lists pets — listPets: GET /v1/pets → 200',
  ])
  expect(readFileSync(file, 'utf8')).not.toContain(key)
  expect(mock.output()).toContain(
    'consumer web-app calls getPet in 1 interaction (tests: shows one pet; shows another pet); removal 2030-12-05; use GET /pets?status=…',
  )
  // What the HTTP mock recorded replays, by Pact's own Verifier, on a correct server it never saw and on a
  // fresh mock.
  const reference = await startReference(serverA)
  const fresh = await freshHttpMock(key)
  try {
    for (const server of [reference, fresh]) expect(await verifierFailures(file, server)).toEqual([])
  } finally {
    await Promise.all([reference.close(), fresh.close()])
  }
})

it('refuses --record without --consumer, saying what to add', async () => {
  await expect(startMockProcess(['--record', dir], 10_000)).rejects.toThrow(/--record needs --consumer NAME/)
})
