import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, type Page, chromium as playwright } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedPets } from '../core/seed-pets.ts'
import { type MockProcess, startMockProcess } from '../http/start-mock-process.ts'
import { findFreePort } from '../local-port.ts'
import { findChromium } from './find-chromium.ts'
import { type ExampleServer, startExampleServer } from './serve-example.ts'

// The example app in a real Chromium (@sparticuz/chromium's, or CHROMIUM_PATH's, driven by playwright-core):
// once against the in-browser mock (MSW service worker), once against npm start's mock over HTTP. Same
// page, same behaviour. It never skips: no browser is a failure with a message saying what to do.
const reports = fileURLToPath(new URL('../../reports/', import.meta.url))
const seed = 7
const seeded = [...seedPets(seed, 12)]

let browser: Browser
let example: ExampleServer
let http: MockProcess

beforeAll(async () => {
  const chromium = await findChromium()
  ;[example, http] = await Promise.all([
    startExampleServer({ port: await findFreePort() }),
    startMockProcess(['--seed', String(seed), '--pets', '12']),
  ])
  // launch() gives every run a fresh, empty profile of its own (Playwright refuses --user-data-dir here).
  browser = await playwright
    .launch({ executablePath: chromium.executablePath, args: chromium.args })
    .catch((error: Error) => {
      throw new Error(`Failed to launch Chromium from ${chromium.source}: ${error.message}`)
    })
  mkdirSync(reports, { recursive: true })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await example?.close()
  await http?.stop()
})

const rows = (page: Page) => page.locator('[data-testid="pet-row"]')
const column = async (page: Page, index: number) =>
  rows(page).evaluateAll((all, at) => all.map((row) => row.children[at]?.textContent ?? ''), index)

/** What a person does with the page, and what they must see, whichever mock answers it. */
async function exercise(page: Page, screenshot: string) {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  expect(await column(page, 1)).toEqual(seeded.map((pet) => pet.name))

  await page.fill('[data-testid="add-name"]', 'Chromium Cat')
  await page.fill('[data-testid="add-category"]', '4')
  await page.selectOption('[data-testid="add-status"]', 'pending')
  await page.click('[data-testid="add-form"] button')
  await expect
    .poll(() => page.textContent('[data-testid="add-result"]'))
    .toMatch(/Added Chromium Cat as pet #13/)
  await expect.poll(() => column(page, 1)).toContain('Chromium Cat')

  await page.fill('[data-testid="get-id"]', '13')
  await page.click('[data-testid="get-form"] button')
  await expect.poll(() => page.textContent('[data-testid="get-result"]')).toContain('"name": "Chromium Cat"')
  expect(await page.textContent('[data-testid="get-deprecation"]')).toContain('deprecated')
  expect(await page.textContent('[data-testid="get-deprecation"]')).toContain('2030-12-05')

  await page.selectOption('[data-testid="filter-status"]', 'sold')
  await page.click('[data-testid="filter-form"] button')
  const sold = seeded.filter((pet) => pet.status === 'sold').length
  await expect.poll(() => rows(page).count()).toBe(sold)
  expect(new Set(await column(page, 3))).toEqual(new Set(['sold']))

  await page.fill('[data-testid="add-name"]', 'Too big')
  await page.fill('[data-testid="add-category"]', '99999999999999999999')
  await page.click('[data-testid="add-form"] button')
  await expect
    .poll(() => page.textContent('[data-testid="add-error"]'))
    .toMatch(/^400 invalid_body: .*\/categoryId/)

  await page.fill('[data-testid="api-key"]', '')
  await page.click('[data-testid="filter-form"] button')
  await expect
    .poll(() => page.textContent('[data-testid="list-error"]'))
    .toMatch(/^401 unauthorized: Missing API key/)
  await page.screenshot({ path: join(reports, screenshot), fullPage: true })
}

describe('the example app in Chromium', () => {
  it('runs on the in-browser mock: the service worker answers, state persists across calls', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.url}?seed=${seed}&pets=12`)
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(
      /\/mockServiceWorker\.js$/,
    )
    expect(await page.textContent('[data-testid="mode"]')).toContain('MSW service worker')
    await exercise(page, 'example-browser-mock.png')
    // int64 beyond 2^53 through the service worker: the raw text keeps the digits (JSON.parse would not).
    const digits = '9223372036854775807'
    const texts = await page.evaluate(async (categoryId) => {
      const headers = { authorization: 'Bearer animal-store-mock-key', 'content-type': 'application/json' }
      const body = `{"name":"Exact","categoryId":${categoryId}}`
      const created = await fetch('/v1/pets', { method: 'POST', headers, body })
      const text = await created.text()
      const id = /"id":(\d+)/.exec(text)?.[1]
      return [text, await (await fetch(`/v1/pets/${id}`, { headers })).text()]
    }, digits)
    for (const text of texts) expect(text).toContain(`"categoryId":${digits}`)
    await context.close()
  })

  it('behaves the same against npm start’s mock over HTTP, unchanged but for ?baseUrl', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.url}?baseUrl=${encodeURIComponent(http.baseUrl)}`)
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull()
    expect(await page.textContent('[data-testid="mode"]')).toBe(`Server: ${http.baseUrl}`)
    await exercise(page, 'example-http-mock.png')
    await context.close()
  })
})
