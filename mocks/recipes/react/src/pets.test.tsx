// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { setupMockServer } from 'animal-store-contract-kit/mocks/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createApiClient } from './api-client.ts'
import { Pets } from './pets.tsx'

const { server, api, listen } = setupMockServer({ seed: 1, pets: 3, apiKeys: ['test-key'] })
beforeAll(() => listen())
afterEach(() => {
  cleanup()
  api.reset()
})
afterAll(() => server.close())

// Absolute: Node's fetch (jsdom has none of its own) cannot resolve `/v1` against the test page.
const client = createApiClient('http://localhost/v1', 'test-key')
const renderPets = (apiClient = client) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Pets client={apiClient} />
    </QueryClientProvider>,
  )

it('lists the seeded pets, then a pet added through the form', async () => {
  renderPets()
  const list = await screen.findByRole('list', { name: 'pets' })
  expect(within(list).getAllByRole('listitem')).toHaveLength(3)

  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Mochi' } })
  fireEvent.click(screen.getByRole('button', { name: 'Add' }))
  expect(await within(list).findByText('Mochi')).toBeDefined()
  expect(within(list).getAllByRole('listitem')).toHaveLength(4)
})

it('shows the contract’s Error the server sends, here for a wrong key', async () => {
  renderPets(createApiClient('http://localhost/v1', 'wrong-key'))
  expect((await screen.findByRole('alert')).textContent).toMatch(/^401 unauthorized: /)
})

it('fails with "Failed to parse URL from /v1/pets" given a relative base URL, the error the README explains', async () => {
  const relative = createApiClient('/v1', 'test-key')
  await expect(relative.GET('/pets')).rejects.toThrow('Failed to parse URL from /v1/pets')
})
