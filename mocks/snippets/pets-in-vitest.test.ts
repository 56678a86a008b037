import { setupMockServer } from 'animal-store-contract-kit/mocks/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'

const { server, api, listen } = setupMockServer({ seed: 1, pets: 5, apiKeys: ['test-key'] })
beforeAll(() => listen()) // an unmocked request fails the test, under msw 2 and msw 3
afterEach(() => api.reset()) // every test starts from the same 5 seeded pets
afterAll(() => server.close())

const headers = { authorization: 'Bearer test-key', 'content-type': 'application/json' }

it('shows a pet in the list right after adding it', async () => {
  const created = await fetch('https://api.example.test/v1/pets', {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Mochi', categoryId: 2, status: 'available' }),
  })
  expect(created.status).toBe(201)
  const pets = await (
    await fetch('https://api.example.test/v1/pets?status=available&limit=100', { headers })
  ).json()
  expect(pets).toContainEqual(await created.json())
})

it('shows the error a real server would send, forced with Prefer', async () => {
  const response = await fetch('https://api.example.test/v1/pets/1', {
    headers: { ...headers, prefer: 'code=404' },
  })
  expect(response.status).toBe(404)
  expect(await response.json()).toMatchObject({ status: 404, code: 'not_found' })
})
