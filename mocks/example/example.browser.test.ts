import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JournalEntry } from '../core/request-journal.ts'
import { seedPets } from '../core/seed-pets.ts'
import { findFreePort } from '../local-port.ts'
import { sharedChromium } from '../proof/shared-chromium.ts'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'
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
  ;[example, http, browser] = await Promise.all([
    startExampleServer({ port: await findFreePort() }),
    startMockProcess(['--seed', String(seed), '--pets', '12']),
    // Each test works in a context of its own: a fresh, empty profile (Playwright refuses --user-data-dir).
    sharedChromium(),
  ])
  mkdirSync(reports, { recursive: true })
}, 120_000)

afterAll(async () => {
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

/**
 * The unhappy paths as a person meets them: a slow list shows its loading state, a faulted list the
 * error screen, and Retry brings the pets back. Faults are forced with the page's "Simulate" select
 * (a Prefer header on the next request); the mock's journal then shows each fault and its one retry.
 */
async function exerciseUnhappyPaths(
  page: Page,
  mode: 'browser-mock' | 'http-mock',
  journal: () => Promise<JournalEntry[]>,
) {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
  const showList = async (simulate: string) => {
    await page.selectOption('[data-testid="simulate"]', simulate)
    await page.click('[data-testid="filter-form"] button')
  }
  await showList('delay=1500')
  await page.waitForSelector('[data-testid="list-loading"]:visible')
  await page.screenshot({ path: join(reports, `example-${mode}-loading.png`), fullPage: true })
  await page.waitForSelector('[data-testid="list-loading"]', { state: 'hidden' })
  expect(await rows(page).count()).toBe(12)

  const failures: [string, RegExp][] = [
    ['fault=503', /^503 service_unavailable: Injected fault/],
    ['fault=500', /^500 internal_error: Injected fault/],
    ['fault=reset', /^0 network_error: The server could not be reached/],
    ['fault=truncate', /^0 bad_response: The answer was cut short/],
  ]
  for (const [simulate, message] of failures) {
    await showList(simulate)
    await page.waitForSelector('[data-testid="list-failure"]:visible')
    expect(await page.textContent('[data-testid="list-failure-message"]')).toMatch(message)
    expect(await page.isVisible('[data-testid="pet-table"]')).toBe(false)
    if (simulate === 'fault=503')
      await page.screenshot({ path: join(reports, `example-${mode}-error.png`), fullPage: true })
    await page.click('[data-testid="list-retry"]')
    await page.waitForSelector('[data-testid="list-failure"]', { state: 'hidden' })
    await expect.poll(() => rows(page).count()).toBe(12)
  }
  const lists = (await journal()).filter((entry) => entry.method === 'GET' && entry.path === '/v1/pets')
  // Each fault, then exactly one retry that succeeded; the slow answer carried its 1.5 s. Over a socket,
  // Chromium itself sends a GET again when a reused connection drops before any answer (it cannot tell
  // whether the server saw it), so the journal shows that reset twice; a service worker has no connection.
  const resets: [string, null, number][] =
    mode === 'http-mock'
      ? [
          ['reset', null, 0],
          ['reset', null, 0],
        ]
      : [['reset', null, 0]]
  const expected = [
    [null, 200, 1500],
    ['503', 503, 0],
    [null, 200, 0],
    ['500', 500, 0],
    [null, 200, 0],
    ...resets,
    [null, 200, 0],
    ['truncate', 200, 0],
    [null, 200, 0],
  ]
  expect(lists.slice(-expected.length).map((entry) => [entry.fault, entry.status, entry.latencyMs])).toEqual(
    expected,
  )
  expect(lists.every((entry) => entry.authorized)).toBe(true)
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

  it('shows a loading state, an error screen and a working retry on the in-browser mock', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.url}?seed=${seed}&pets=12`)
    const journal = async () =>
      page.evaluate(async () => (await (await fetch('/__mock/requests')).json()).requests as JournalEntry[])
    await exerciseUnhappyPaths(page, 'browser-mock', journal)
    await context.close()
  })

  it('shows the same loading state, error screen and retry against npm start’s mock over HTTP', async () => {
    const reset = await fetch(`${http.origin}/__mock/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed, pets: 12, scenario: 'default' }),
    })
    expect(reset.status).toBe(200)
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.url}?baseUrl=${encodeURIComponent(http.baseUrl)}`)
    const journal = async () =>
      ((await (await fetch(`${http.origin}/__mock/requests`)).json()) as { requests: JournalEntry[] })
        .requests
    await exerciseUnhappyPaths(page, 'http-mock', journal)
    await context.close()
  })

  it('refuses unknown reset keys and takes every reset option by name in the service worker', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.url}?seed=${seed}&pets=12`)
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
    const outcomes = await page.evaluate(async () => {
      const auth = { authorization: 'Bearer animal-store-mock-key' }
      const json = { 'content-type': 'application/json' }
      const reset = async (body: string) => {
        const response = await fetch('/__mock/reset', { method: 'POST', headers: json, body })
        return { status: response.status, body: await response.json() }
      }
      const journal = async () => (await (await fetch('/__mock/requests')).json()).requests
      const list = async () => (await fetch('/v1/pets?limit=100', { headers: auth })).status
      const create = async () =>
        (
          await fetch('/v1/pets', {
            method: 'POST',
            headers: { ...auth, ...json },
            body: '{"name":"Maybe","categoryId":1}',
          })
        ).status
      const typo = await reset('{"scenaro":"empty"}')
      const wrongType = await reset('{"latency":{"min":"1","max":2}}')
      const afterRefusals = (await (await fetch('/__mock/health')).json()).pets
      await reset('{"latency":60,"faultRate":1,"faultKinds":["500"]}')
      const faulted = [await list(), (await journal())[0]?.latencyMs]
      await reset('{"operations":{"createPet":{"faultRate":1}},"faultKinds":["503"]}')
      const perOperation = [await list(), await create()]
      const back = (await reset('{}')).body
      return { typo, wrongType, afterRefusals, faulted, perOperation, back, listed: await list() }
    })
    expect(outcomes.typo).toMatchObject({
      status: 400,
      body: {
        code: 'invalid_body',
        allowedKeys: ['scenario', 'seed', 'pets', 'latency', 'faultRate', 'faultKinds', 'operations', 'date'],
      },
    })
    expect(outcomes.typo.body.message).toContain('"scenaro"')
    expect(outcomes.wrongType.status).toBe(400)
    expect(outcomes.afterRefusals).toBe(12)
    expect(outcomes.faulted).toEqual([500, 60])
    expect(outcomes.perOperation).toEqual([200, 503])
    // An empty reset returns to what the page started the mock with: seed 7, 12 pets.
    expect(outcomes.back).toMatchObject({ pets: 12, seed, scenario: 'default' })
    expect(outcomes.listed).toBe(200)
    await context.close()
  })

  it('carries out every fault kind, latency, each scenario and the journal in the service worker', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${example.url}?seed=${seed}&pets=12`)
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 })
    const outcomes = await page.evaluate(async () => {
      const auth = { authorization: 'Bearer animal-store-mock-key' }
      const json = { 'content-type': 'application/json' }
      const get = async (path: string, prefer = '', timeoutMs?: number) => {
        const started = performance.now()
        try {
          const response = await fetch(path, {
            headers: prefer ? { ...auth, prefer } : auth,
            ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
          })
          const text = await response.text()
          return {
            outcome: `${response.status} ${response.headers.get('x-mock-fault') ?? '-'}`,
            ms: performance.now() - started,
            text,
          }
        } catch (error) {
          return { outcome: `rejected ${(error as Error).name}`, ms: performance.now() - started, text: '' }
        }
      }
      const reset = async (body: object) =>
        (await fetch('/__mock/reset', { method: 'POST', headers: json, body: JSON.stringify(body) })).json()
      const journal = async () => (await (await fetch('/__mock/requests')).json()).requests
      await reset({})
      const delayed = await get('/v1/pets?limit=1', 'delay=300')
      const faults: Record<string, string> = {}
      for (const fault of ['503', '500', 'reset', 'truncate'])
        faults[fault] = (await get('/v1/pets', `fault=${fault}`)).outcome
      faults.timeout = (await get('/v1/pets', 'fault=timeout', 300)).outcome
      const afterFaults = await journal()
      const scenarios: Record<string, unknown> = {}
      scenarios.empty = [(await reset({ scenario: 'empty' })).pets, (await get('/v1/pets')).text]
      const many = await reset({ scenario: 'many' })
      scenarios.many = [
        many.pets,
        JSON.parse((await get('/v1/pets?limit=100')).text).some(
          (pet: { name: string }) => pet.name.length >= 1000,
        ),
      ]
      await reset({ scenario: 'full' })
      const created = await fetch('/v1/pets', {
        method: 'POST',
        headers: { ...auth, ...json },
        body: '{"name":"No room","categoryId":1}',
      })
      scenarios.full = created.status
      await reset({ scenario: 'slow' })
      const slow = await get('/v1/pets?limit=1')
      scenarios.slow = [slow.ms >= 495, (await journal())[0].latencyMs >= 500]
      await reset({ scenario: 'flaky', seed: 5 })
      for (let index = 0; index < 25; index++) await get('/v1/pets?limit=1')
      scenarios.flaky = (await journal()).filter((entry: { fault: string | null }) => entry.fault).length
      await reset({ scenario: 'default' })
      return { delayed: [delayed.outcome, delayed.ms >= 295], faults, afterFaults, scenarios }
    })
    expect(outcomes.delayed).toEqual(['200 -', true])
    expect(outcomes.faults).toEqual({
      '503': '503 503',
      '500': '500 500',
      reset: 'rejected TypeError',
      truncate: 'rejected TypeError',
      timeout: 'rejected TimeoutError',
    })
    expect(
      outcomes.afterFaults.map((entry: JournalEntry) => [entry.fault, entry.status, entry.latencyMs]),
    ).toEqual([
      [null, 200, 300],
      ['503', 503, 0],
      ['500', 500, 0],
      ['reset', null, 0],
      ['truncate', 200, 0],
      ['timeout', null, 0],
    ])
    expect(JSON.stringify(outcomes.afterFaults)).not.toContain('animal-store-mock-key')
    expect(outcomes.scenarios).toEqual({
      empty: [0, '[]'],
      many: [10_000, true],
      full: 507,
      slow: [true, true],
      flaky: expect.any(Number),
    })
    expect(outcomes.scenarios.flaky).toBeGreaterThan(0)
    await context.close()
  })
})
