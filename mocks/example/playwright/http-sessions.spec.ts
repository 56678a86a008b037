import type { Page } from '@playwright/test'
import { seedPets } from '../../core/seed-pets.ts'
import { expect, httpMockTest as test } from '../../playwright.ts'

// The example app against one HTTP mock process (npm start) shared by every worker: each worker's
// requests carry its own X-Mock-Session (run-<ANIMAL_STORE_MOCK_RUN>-worker-<n>), so the workers' pets,
// and another run's, never meet. ANIMAL_STORE_MOCK_URL names the process (started with --seed 11
// --pets 3 by mocks/example/playwright-workers.browser.test.ts); resetMockSession reads it too.
const origin = process.env.ANIMAL_STORE_MOCK_URL ?? 'http://127.0.0.1:4010'
const seeded = [...seedPets(11, 3)].map((pet) => pet.name)

const names = (page: Page) =>
  page
    .locator('[data-testid="pet-row"]')
    .evaluateAll((rows) => rows.map((row) => row.children[1]?.textContent ?? ''))

test.beforeEach(async ({ resetMockSession }) => {
  await resetMockSession()
})

for (let index = 0; index < 8; index++) {
  test(`in its worker's session, creates a pet and lists only that session's pets (${index})`, async ({
    page,
    mockSession,
  }) => {
    await page.goto(`/?baseUrl=${encodeURIComponent(`${origin}/v1`)}`)
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
    expect(await names(page)).toEqual(seeded)
    await page.fill('[data-testid="add-name"]', `HTTP pet ${index} in ${mockSession}`)
    await page.fill('[data-testid="add-category"]', '1')
    await page.click('[data-testid="add-form"] button')
    await expect.poll(() => names(page)).toEqual([...seeded, `HTTP pet ${index} in ${mockSession}`])
  })
}
