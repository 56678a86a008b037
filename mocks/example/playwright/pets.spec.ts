import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { seedPets } from '../../core/seed-pets.ts'
import { expect, test } from '../../playwright.ts'

// The example app against a mock of its own per test: ?baseUrl=/v1 makes the page call /v1 on its own
// origin, which the animalStore fixture answers (page.route), so no service worker is involved.
const seed = 11
const seeded = [...seedPets(seed, 3)].map((pet) => pet.name)
// Every test's page traffic goes into one Pact file (docs/pact.md), here outside the repository.
test.use({
  mockOptions: { seed, pets: 3 },
  record: {
    consumer: 'example-app',
    dir: process.env.PACT_DIR ?? join(tmpdir(), 'animal-store-example-pacts'),
  },
})

const names = (page: Page) =>
  page
    .locator('[data-testid="pet-row"]')
    .evaluateAll((rows) => rows.map((row) => row.children[1]?.textContent ?? ''))

async function open(page: Page) {
  await page.goto('/?baseUrl=/v1')
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
}

async function add(page: Page, name: string) {
  await page.fill('[data-testid="add-name"]', name)
  await page.fill('[data-testid="add-category"]', '1')
  await page.click('[data-testid="add-form"] button')
}

for (let index = 0; index < 8; index++) {
  test(`creates a pet and lists only its own store's pets (${index})`, async ({ page, animalStore }) => {
    await open(page)
    expect(await names(page)).toEqual(seeded)
    await add(page, `Pet of test ${index}`)
    await expect.poll(() => names(page)).toEqual([...seeded, `Pet of test ${index}`])
    expect(animalStore.api.store.size).toBe(4)
    expect(animalStore.requests.map(({ method, status }) => `${method} ${status}`)).toContain('POST 201')
    test.info().annotations.push({ type: 'worker', description: String(test.info().parallelIndex) })
  })
}

test('resets to a scenario and journals what the page asked', async ({ page, animalStore }) => {
  animalStore.reset({ scenario: 'empty' })
  await open(page)
  expect(await names(page)).toEqual([])
  expect(animalStore.requests[0]).toMatchObject({ method: 'GET', path: '/v1/pets', status: 200 })
})

test('sets latency and faults through reset: the page shows the injected 503', async ({
  page,
  animalStore,
}) => {
  await open(page)
  animalStore.reset({ operations: { createPet: { faultRate: 1 } }, faultKinds: ['503'], latency: 50 })
  await add(page, 'Never stored')
  await expect.poll(() => page.textContent('[data-testid="add-error"]')).toMatch(/^503 service_unavailable/)
  expect(animalStore.api.store.size).toBe(3)
  expect(animalStore.requests.at(-1)).toMatchObject({ method: 'POST', fault: '503', latencyMs: 50 })
})

test('answers one operation with a typed override', async ({ page, animalStore }) => {
  animalStore.override('listPets', 200, [{ id: 99, name: 'Overridden', categoryId: 1, status: 'sold' }])
  // Never called: the type-checker refuses a status the contract does not list for the operation.
  // @ts-expect-error the contract lists no 404 for listPets
  const notListed = () => animalStore.override('listPets', 404, [])
  expect(typeof notListed).toBe('function')
  await open(page)
  expect(await names(page)).toEqual(['Overridden'])
})

// Stands for a server-rendered page: its pets came from the app's server, which page.route never sees.
// The fixture annotates such a test with a warning (mocks/example/playwright-workers.browser.test.ts reads it).
test('a page whose API calls the browser never makes gets the fixture’s warning, not a failure', async ({
  page,
  animalStore,
}) => {
  await page.setContent('<ul><li data-testid="pet-row">Rendered on a server</li></ul>')
  await expect(page.getByTestId('pet-row')).toHaveCount(1)
  expect(animalStore.requests).toEqual([])
})
