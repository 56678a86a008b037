import { setupMockServer, writePact } from 'animal-store-contract-kit/mocks/node'
import { afterAll, beforeAll, expect, it } from 'vitest'

const { server, api, listen } = setupMockServer({
  apiKeys: ['test-key'],
  record: { consumer: 'web-app', testName: () => expect.getState().currentTestName },
})
beforeAll(() => listen())
afterAll(async () => {
  server.close()
  await writePact(api, 'pacts') // pacts/web-app-animal-store.json, merged with other test files'
})

const headers = { authorization: 'Bearer test-key', 'content-type': 'application/json' }

it('adds a pet and opens its page', async () => {
  const created = await fetch('https://api.example.test/v1/pets', {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Mochi', categoryId: 2, status: 'available' }),
  })
  const { id } = await created.json()
  const page = await fetch(`https://api.example.test/v1/pets/${id}`, { headers })
  expect(await page.json()).toMatchObject({ id, name: 'Mochi' })
})
