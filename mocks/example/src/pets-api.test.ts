import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../../create-mock-api.ts'
import { createPetsApi, type PetsApi } from './pets-api.ts'

// How a frontend team tests its data module: MSW's setupServer answering from our mock, a fresh mock per
// test inside server.boundary(), so concurrent tests never see each other's pets.
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

const baseUrl = 'https://api.example.test/v1'
const withFreshMock = (test: (api: PetsApi, mock: ReturnType<typeof createMockApi>) => Promise<void>) =>
  server.boundary(async () => {
    const mock = createMockApi({ seed: 3, pets: 4, apiKeys: ['frontend-key'] })
    server.use(...mock.handlers)
    await test(createPetsApi({ baseUrl, apiKey: () => 'frontend-key' }), mock)
  })

describe.concurrent('the pets data module against the mock', () => {
  it(
    'adds a pet and then finds it in the list and by id',
    withFreshMock(async (api) => {
      const created = await api.createPet({ name: 'Pixel', categoryId: 5, status: 'pending' })
      expect(created.ok).toBe(true)
      if (!created.ok) return
      const listed = await api.listPets({ status: 'pending', limit: 100 })
      expect(listed.ok && listed.data).toContainEqual(created.data)
      const found = await api.getPet(created.data.id)
      expect(found.ok && found.data.value).toEqual(created.data)
    }),
  )

  it(
    'starts from the seeded pets only, whatever other tests add at the same time',
    withFreshMock(async (api, mock) => {
      await api.createPet({ name: 'Only here', categoryId: 1 })
      const listed = await api.listPets({ limit: 100 })
      expect(listed.ok && listed.data.map((pet) => pet.name)).toContain('Only here')
      expect(listed.ok && listed.data.length).toBe(5)
      expect(mock.store.size).toBe(5)
    }),
  )

  it(
    'sees its own fresh store in a concurrent test',
    withFreshMock(async (api) => {
      const listed = await api.listPets({ limit: 100 })
      expect(listed.ok && listed.data.map((pet) => pet.name)).not.toContain('Only here')
    }),
  )

  it(
    'reports the contract’s Error when the server refuses, here forced with Prefer: code=401',
    withFreshMock(async () => {
      const api = createPetsApi({
        baseUrl,
        apiKey: () => 'frontend-key',
        fetch: (input, init) =>
          fetch(input, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), prefer: 'code=401' },
          }),
      })
      expect(await api.listPets()).toEqual({
        ok: false,
        error: expect.objectContaining({ status: 401, code: 'unauthorized' }),
      })
    }),
  )

  it(
    'reports a 400 that names the field for an invalid pet',
    withFreshMock(async (api) => {
      const refused = await api.createPet({ name: 'Rex', categoryId: 1.5 })
      expect(refused.ok ? '' : refused.error.message).toContain('/categoryId')
    }),
  )

  it(
    'reads the deprecation and sunset of GET /pets/{petId} from its headers',
    withFreshMock(async (api) => {
      const found = await api.getPet(1)
      expect(found.ok && found.data.deprecated).toBe(true)
      expect(found.ok && found.data.sunset?.toISOString()).toBe('2030-12-05T00:00:00.000Z')
    }),
  )
})
