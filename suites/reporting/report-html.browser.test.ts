import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { sharedChromium } from '../../mocks/proof/shared-chromium.ts'
import type { CheckResult } from '../engine/run-check.ts'
import { replayCommand } from '../judging/replay-command.ts'
import { brokenServerKey, brokenServers } from '../proof/broken-servers.ts'
import type { CommandRun } from '../proof/conformance-command.ts'
import { runConformanceCommand } from '../proof/conformance-command.ts'
import { buildReport } from './conformance-report.ts'
import { toHtml } from './report-html.ts'

// The HTML report as a person sees it: the report of a real failing run (the conformance command against a
// server that takes any bearer key), opened from disk in a real Chromium with JavaScript off and every
// network request recorded; then a report full of hostile server text, with JavaScript on.
const reports = fileURLToPath(new URL('../../reports/', import.meta.url))
const server = brokenServers.find((one) => one.defect === 'auth hole: any bearer key is accepted')

let browser: Browser
let run: CommandRun
let htmlFile: string

beforeAll(async () => {
  if (!server)
    throw new Error('The broken server "auth hole: any bearer key is accepted" is gone; pick another.')
  const http = await serveHttp(server.build(), { port: 0, host: '127.0.0.1' })
  try {
    ;[run, browser] = await Promise.all([
      runConformanceCommand(['--base-url', `${http.origin}/v1`], {
        env: { CONFORMANCE_API_KEY: brokenServerKey },
      }),
      sharedChromium(),
    ])
  } finally {
    await http.close()
  }
  htmlFile = join(run.reportDir, 'conformance.html')
  mkdirSync(reports, { recursive: true })
}, 180_000)

/** Opens a report file the way a person does, recording every request the page makes. */
async function open(file: string, options: { javaScript: boolean; width?: number }) {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScript,
    viewport: { width: options.width ?? 1400, height: 1000 },
  })
  const page = await context.newPage()
  const requests: string[] = []
  const dialogs: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(pathToFileURL(file).href)
  return { context, page, requests, dialogs }
}

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

describe('the HTML report of a failing run, in Chromium', () => {
  let context: BrowserContext

  afterAll(async () => {
    await context?.close()
  })

  it('shows the verdict, the finding and the coverage matrix, with no JavaScript and no network', async () => {
    expect(run.code, run.output).toBe(1)
    expect(run.output.trimEnd().split('\n').at(-1)).toBe(`HTML report: ${htmlFile}`)
    const opened = await open(htmlFile, { javaScript: false })
    context = opened.context
    const { page } = opened
    expect(opened.requests).toEqual([pathToFileURL(htmlFile).href])

    expect(await page.locator('h1').innerText()).toBe('Animal Store conformance: DOES NOT CONFORM')
    expect(await page.locator('header').innerText()).toContain(`${run.report?.target.seed}`)

    // The server's defect, as the suite must report it: an auth finding on listPets, with its replay.
    const auth = page.locator('article.finding', { has: page.locator('.rule', { hasText: /^auth$/ }) })
    await expect.poll(() => auth.count()).toBe(1)
    expect(await auth.innerText()).toContain('listPets')
    const replay = await auth.locator('pre.replay').innerText()
    expect(replay).toMatch(/^curl -i -g --path-as-is /)
    expect(await page.locator('body').innerText()).not.toContain(brokenServerKey)

    // listPets × 200 × security: the auth checks whose requests were wrongly answered 200 failed there.
    const failedThere = (run.report?.checks ?? []).filter(
      (check) =>
        check.group === 'security' && check.outcome === 'failed' && check.exercised?.includes('listPets 200'),
    ).length
    expect(failedThere).toBeGreaterThan(0)
    const header = await page.locator('table.matrix thead th').allInnerTexts()
    const row = page.locator('table.matrix tbody tr', {
      has: page.locator('th', { hasText: /^listPets$/ }),
    })
    const cells = await row
      .filter({ has: page.locator('td.status', { hasText: /^200$/ }) })
      .locator('th, td')
      .allInnerTexts()
    expect(cells[header.indexOf('security')]).toContain(`✗${failedThere}`)
    expect(cells[header.indexOf('declared pair')]).toBe('exercised')

    // The page's whole width, nothing pushed past it.
    const mainWidth = await page.locator('main').evaluate((main) => main.getBoundingClientRect().width)
    expect(mainWidth).toBeGreaterThan(1400 - 100)
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    await page.screenshot({ path: join(reports, 'conformance-report.png') })
    await page.locator('#coverage').screenshot({ path: join(reports, 'conformance-report-coverage.png') })
  })

  it('reads printed: no navigation, every finding, nothing wider than an A4 page', async () => {
    const { page, context: printing } = await open(htmlFile, { javaScript: false, width: 794 })
    await page.emulateMedia({ media: 'print' })
    expect(await page.locator('nav').isVisible()).toBe(false)
    expect(await page.locator('article.finding').count()).toBe(run.report?.findings.length)
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    await printing.close()
  })
})

describe('the HTML report escapes what a server sends', () => {
  const hostile =
    '<script>window.pwned=1;alert("x")</script><img src="http://127.0.0.1:9/x" onerror="alert(1)">'
  const breakout = `</pre></article></section><h1>FAKE VERDICT</h1><style>body{display:none}</style>`
  const longName = 'x'.repeat(5000)

  it('shows hostile text as text: no script runs, nothing loads, the page keeps its shape', async () => {
    const where = `body /${hostile}${longName} must be integer`
    const violation = {
      rule: 'body-schema' as const,
      operation: `listPets${breakout}`,
      where,
      message: `GET /pets answered ${hostile} ${breakout} ${longName}`,
      exchange: `> GET http://127.0.0.1:1/v1/pets\n< 200\n  content-type: ${hostile}\n  [{"name":"${breakout}${longName}"}]`,
      replay: replayCommand(
        { method: 'POST', url: `http://127.0.0.1:1/v1/pets?q=${breakout}`, headers: {}, body: hostile },
        { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k3y-value' },
      ),
    }
    const check: CheckResult = {
      group: `g${breakout}`,
      name: `${hostile}${longName}`,
      outcome: 'failed',
      message: breakout,
      violations: [violation],
      warnings: [`warning ${hostile}`],
      advice: [`advice ${hostile}`],
      notes: [`note ${breakout}`],
      exercised: [`listPets${breakout} 200`],
    }
    const report = buildReport([check], {
      target: { baseUrl: 'http://127.0.0.1:1/v1', readOnly: false, viaPrism: false, seed: 1 },
      startedAt: new Date(),
      finishedAt: new Date(),
      coverage: [],
      created: { count: 0, namePrefix: breakout },
    })
    const file = join(mkdtempSync(join(tmpdir(), 'hostile-report-')), 'conformance.html')
    writeFileSync(file, toHtml(report))

    const { page, requests, dialogs, context } = await open(file, { javaScript: true })
    expect(requests).toEqual([pathToFileURL(file).href])
    expect(dialogs).toEqual([])
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
    expect(
      await page.evaluate(
        () =>
          document.querySelectorAll('script, img, iframe, object, embed, svg, link, style:not(head style)')
            .length,
      ),
    ).toBe(0)
    expect(await page.locator('h1').allInnerTexts()).toEqual(['Animal Store conformance: DOES NOT CONFORM'])
    expect(await page.locator('article.finding').count()).toBe(1)
    expect(await page.locator('body').isVisible()).toBe(true)
    const finding = await page.locator('article.finding').innerText()
    expect(finding).toContain(hostile)
    expect(finding).toContain(breakout)
    expect(await page.locator('#advice').innerText()).toContain(`warning ${hostile}`)
    expect(await page.locator('#advice').innerText()).toContain(`advice ${hostile}`)
    // A 5,000-character name wraps instead of widening the page.
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    expect(readFileSync(file, 'utf8')).not.toContain('<script')
    await context.close()
  })
})
