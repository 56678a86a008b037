import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { type Browser, type BrowserContext, chromium as playwright } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findChromium } from './find-chromium.ts'
import { bundleForBrowser } from './proof/browser-bundle.ts'

// startBrowserMock in a real Chromium, on a page served from 127.0.0.1: each reason it can fail to start
// gives an error saying why and what to do, within its timeout, and persist: 'session' keeps the pets
// across a reload. insecure.test maps to 127.0.0.1 in Chromium's resolver: an http origin that is not a
// secure context, with no traffic leaving the machine.
const page = `
import { startBrowserMock } from './browser.ts'
const query = new URLSearchParams(location.search)
const outcome = {}
try {
  const started = performance.now()
  const mock = await startBrowserMock({
    baseUrl: '/v1',
    quiet: true,
    pets: 3,
    serviceWorkerUrl: query.get('worker') ?? '/mockServiceWorker.js',
    timeoutMs: Number(query.get('timeoutMs') ?? 5000),
    ...(query.get('persist') ? { persist: 'session' } : {}),
  })
  outcome.startedMs = performance.now() - started
  const headers = { authorization: 'Bearer animal-store-mock-key', 'content-type': 'application/json' }
  if (query.get('create')) await fetch('/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name: query.get('create'), categoryId: 1 }) })
  outcome.names = (await (await fetch('/v1/pets?limit=100', { headers })).json()).map((pet) => pet.name)
} catch (error) {
  outcome.error = error.message
}
window.outcome = outcome
`
const workerScript = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8')

// A worker whose install step never finishes: registered, never active, as a stuck headless browser leaves it.
const neverActivates = 'self.addEventListener("install", (event) => event.waitUntil(new Promise(() => {})))'

let server: Server
let port: number
let browser: Browser
let bundle: string

beforeAll(async () => {
  bundle = await bundleForBrowser(page, fileURLToPath(new URL('.', import.meta.url)))
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    const [type, body] =
      path === '/page.js'
        ? ['text/javascript', bundle]
        : path === '/mockServiceWorker.js' || path === '/assets/mockServiceWorker.js'
          ? ['text/javascript', workerScript]
          : path === '/never-activates.js'
            ? ['text/javascript', neverActivates]
            : [
                'text/html',
                '<!doctype html><title>start</title><script type="module" src="/page.js"></script>',
              ]
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' })
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
  const chromium = await findChromium()
  browser = await playwright.launch({
    executablePath: chromium.executablePath,
    args: [...chromium.args, '--host-resolver-rules=MAP insecure.test 127.0.0.1'],
  })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
})

async function visit(context: BrowserContext, url: string) {
  const tab = await context.newPage()
  await tab.goto(url)
  await tab.waitForFunction(() => 'outcome' in window, undefined, { timeout: 60_000 })
  const outcome = (await tab.evaluate(() => (window as unknown as { outcome: unknown }).outcome)) as {
    error?: string
    names?: string[]
  }
  return { tab, outcome }
}

describe('startBrowserMock, when it cannot start, says why and what to do', () => {
  it('rejects on an insecure origin, naming localhost and https', async () => {
    const context = await browser.newContext()
    const { outcome } = await visit(context, `http://insecure.test:${port}/`)
    expect(outcome.error).toMatch(/need a secure context, and http:\/\/insecure\.test:\d+ is not one/)
    expect(outcome.error).toContain('http://localhost')
    await context.close()
  })

  it('rejects a worker script whose scope cannot hold the page, saying where to serve it', async () => {
    const context = await browser.newContext()
    const { outcome } = await visit(context, `http://127.0.0.1:${port}/?worker=/assets/mockServiceWorker.js`)
    expect(outcome.error).toMatch(
      /can only control pages under http:\/\/127\.0\.0\.1:\d+\/assets\/, and this page is/,
    )
    expect(outcome.error).toContain('from the site root')
    await context.close()
  })

  it('rejects a missing worker script (the dev server answers with its HTML), naming the command', async () => {
    const context = await browser.newContext()
    const { outcome } = await visit(context, `http://127.0.0.1:${port}/?worker=/missing-worker.js`)
    expect(outcome.error).toMatch(
      /worker script is not served at \/missing-worker\.js \(the server answered 200 text\/html\)/,
    )
    expect(outcome.error).toContain('npx animal-store-mock worker public')
    await context.close()
  })

  it('rejects after its timeout when the worker never activates, instead of hanging, giving its state', async () => {
    const context = await browser.newContext()
    const { outcome } = await visit(
      context,
      `http://127.0.0.1:${port}/?timeoutMs=1500&worker=/never-activates.js`,
    )
    expect(outcome.error).toMatch(
      /did not take control of the page within 1500 ms \(registered, worker installing\)/,
    )
    expect(outcome.error).toContain('Pass timeoutMs to wait longer')
    await context.close()
  })

  it('rejects when the browser blocks service workers, naming the setting', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' })
    const { outcome } = await visit(context, `http://127.0.0.1:${port}/`)
    expect(outcome.error).toMatch(/could not be registered or activated \(never registered; MSW said: /)
    expect(outcome.error).toContain('serviceWorkers: "block"')
    await context.close()
  })
})

describe("startBrowserMock's persistence", () => {
  it('starts fresh on reload by default', async () => {
    const context = await browser.newContext()
    const first = await visit(context, `http://127.0.0.1:${port}/?create=Forgotten`)
    expect(first.outcome.names).toHaveLength(4)
    await first.tab.goto(`http://127.0.0.1:${port}/`)
    await first.tab.waitForFunction(() => 'outcome' in window)
    const names = await first.tab.evaluate(
      () => (window as unknown as { outcome: { names: string[] } }).outcome.names,
    )
    expect(names).toHaveLength(3)
    await context.close()
  })

  it("keeps created pets across a reload with persist: 'session', in the same tab only", async () => {
    const context = await browser.newContext()
    const first = await visit(context, `http://127.0.0.1:${port}/?persist=1&create=Remembered`)
    expect(first.outcome.names).toContain('Remembered')
    await first.tab.goto(`http://127.0.0.1:${port}/?persist=1`)
    await first.tab.waitForFunction(() => 'outcome' in window)
    const names = await first.tab.evaluate(
      () => (window as unknown as { outcome: { names: string[] } }).outcome.names,
    )
    expect(names).toEqual(first.outcome.names)
    // sessionStorage belongs to one tab: a new tab starts from the seed.
    const other = await visit(context, `http://127.0.0.1:${port}/?persist=1`)
    expect(other.outcome.names, other.outcome.error).toHaveLength(3)
    await context.close()
  })
})
