import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest'
import { sharedChromium } from '../../proof/shared-chromium.ts'
import { writeServiceWorker } from '../../service-worker-file.ts'

// The React recipe on Vite's dev server with VITE_MOCK_API=true, in a real Chromium: the mock must be up
// before the first render, so the first query is answered by the service worker, not the dev server.
const root = fileURLToPath(new URL('.', import.meta.url))
let server: ViteDevServer
let browser: Browser

beforeAll(async () => {
  writeServiceWorker(`${root}public`) // what `npx animal-store-mock worker public` does
  process.env.VITE_MOCK_API = 'true' // as .env.development.local would set it
  server = await createServer({
    configFile: `${root}vite.config.ts`,
    logLevel: 'warn',
    server: { port: 0, host: '127.0.0.1' },
  })
  await server.listen()
  delete process.env.VITE_MOCK_API
  browser = await sharedChromium()
}, 120_000)

afterAll(async () => {
  await server?.close()
})

it('renders the mock’s pets on the first render and lists a pet added through the form', async () => {
  const page = await browser.newPage()
  // The page's own context: closing it leaves the shared browser as it was.
  onTestFinished(() => page.close())
  const messages: string[] = []
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`))
  await page.goto(server.resolvedUrls?.local[0] ?? '')
  const items = page.getByRole('list', { name: 'pets' }).getByRole('listitem')
  await expect.poll(() => items.count(), { timeout: 60_000 }).toBe(50) // the default seed's first 50 pets
  await page.getByLabel('Name').fill('Recipe Rabbit')
  await page.getByRole('button', { name: 'Add' }).click()
  await expect.poll(() => items.allTextContents()).toContain('Recipe Rabbit')
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(
    /\/mockServiceWorker\.js$/,
  )
  expect(messages.filter((message) => message.includes('[MSW]'))).toEqual([])
})
