// The Next recipe's Playwright tests: pets added by the Server Action and read by the page and the route handler stay in the worker's mock session.
import type { Browser } from '@playwright/test'
import { expect, httpMockTest as test } from 'animal-store-contract-kit/playwright'

test.beforeEach(async ({ resetMockSession }) => {
  await resetMockSession() // this worker's session, back to no pets
})

for (let index = 0; index < 8; index++) {
  test(`adds a pet with the Server Action and reads back only its session's pets (${index})`, async ({
    page,
    mockSession,
  }) => {
    const name = `Pet ${index} of ${mockSession}`
    await page.goto('/') // rendered by next start, which asks the mock in this worker's session
    await expect(page.getByTestId('pet-row')).toHaveCount(0)
    await page.getByLabel('Name').fill(name)
    await page.getByRole('button', { name: 'Add' }).click()
    await expect(page.getByTestId('pet-row')).toHaveText([name])
    const listed = (await (await page.request.get('/api/pets')).json()) as { name: string }[]
    expect(listed.map((pet) => pet.name)).toEqual([name])
    test.info().annotations.push({ type: 'session', description: mockSession })
  })
}

/** A browser context in a session of its own, as another worker's would be. */
async function neighbourOf(browser: Browser, session: string) {
  const neighbour = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { 'X-Mock-Session': `${session}-neighbour` },
  })
  await neighbour.request.post(`${process.env.ANIMAL_STORE_MOCK_URL}/__mock/reset`, { data: {} })
  return neighbour
}

test('a neighbour session sees none of this session’s pets, on the page or from the route handler', async ({
  page,
  browser,
  mockSession,
}, testInfo) => {
  // The negative control: against the app with ANIMAL_STORE_MOCK_SESSIONS=0, which forwards no session,
  // both contexts land in the mock's default session and the neighbour sees the pet.
  test.fail(testInfo.project.name === 'no-forwarding', 'the app forwards no session')
  const neighbour = await neighbourOf(browser, mockSession)
  const name = `Pet of ${mockSession}, kept from its neighbour`
  await page.goto('/')
  await page.getByLabel('Name').fill(name)
  await page.getByRole('button', { name: 'Add' }).click()
  await expect(page.getByTestId('pet-row')).toHaveText([name])
  const other = await neighbour.newPage()
  await other.goto('/')
  expect(await other.getByTestId('pet-row').allTextContents()).toEqual([])
  expect(await (await neighbour.request.get('/api/pets')).json()).toEqual([])
  await neighbour.close()
})
