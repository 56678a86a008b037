import type { paths } from 'animal-store-contract-kit/contract'
import { setupMockServer } from 'animal-store-contract-kit/mocks/node'
import createClient from 'openapi-fetch'
import { afterAll, beforeAll, expect, it } from 'vitest'

const { server, listen } = setupMockServer({ seed: 1, pets: 5, apiKeys: ['test-key'] })
beforeAll(() => listen())
afterAll(() => server.close())

// Every path, parameter, body and answer below is typed from the contract (paths from the package).
const client = createClient<paths>({
  baseUrl: 'https://api.example.test/v1',
  headers: { authorization: 'Bearer test-key' },
  // openapi-fetch keeps the fetch it finds when the client is created; MSW replaces the global one when
  // listen() runs. Looking it up on each call lets a client made at import time be answered by the mock.
  fetch: (request) => globalThis.fetch(request),
})

it('adds a pet and lists it, typed end to end', async () => {
  const created = await client.POST('/pets', { body: { name: 'Mochi', categoryId: 2, status: 'available' } })
  expect(created.response.status).toBe(201)
  const { data: pets } = await client.GET('/pets', { params: { query: { status: 'available', limit: 100 } } })
  expect(pets?.map((pet) => pet.name)).toContain('Mochi')
})

it('gives the contract’s Error as a typed error', async () => {
  const { data, error } = await client.GET('/pets/{petId}', { params: { path: { petId: 999 } } })
  expect(data).toBeUndefined()
  expect(error).toMatchObject({ status: 404, code: 'not_found' })
})

it('does not compile a body with a wrong field name (npm test runs tsc on this file)', async () => {
  // @ts-expect-error `category` is not a NewPet field: the contract calls it `categoryId`
  const { error } = await client.POST('/pets', { body: { name: 'Mochi', category: 2 } })
  expect(error).toMatchObject({ status: 400, code: 'invalid_body' }) // and the mock refuses it too
})
