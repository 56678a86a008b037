import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleForBrowser } from '../../mocks/proof/browser-bundle.ts'
import { sharedChromium } from '../../mocks/proof/shared-chromium.ts'

// Test helper: the installed package's browser mock in a real Chromium, under whichever msw the scratch
// project holds. The page (scripts/proof/package-fixtures/browser-mock-page.ts) is bundled from inside the project,
// so it resolves the package and msw from there, and served from 127.0.0.1 the way a dev server does it:
// an unknown path gets index.html (200 text/html), as Vite's SPA fallback answers a missing worker script.
const fixture = fileURLToPath(new URL('package-fixtures/browser-mock-page.ts', import.meta.url))
const indexHtml = '<!doctype html><title>browser mock</title><script type="module" src="/page.js"></script>'

export interface BrowserMockVisit {
  outcome: { mocked?: { status: number; count: number }; unmocked?: string; error?: string }
  /** Every console message of the page, both visits. */
  console: string[]
  /** Paths that reached the server (not answered by the worker). */
  served: string[]
}

/**
 * Bundles the page in `app`, serves it with `publicDir` (where `animal-store-mock worker` wrote the script),
 * opens it in Chromium, then reloads it once the worker controls it (so the page's own navigation goes
 * through the worker too), and reports what the second visit saw.
 */
export async function visitBrowserMockPage(
  app: string,
  publicDir: string,
  query = '',
): Promise<BrowserMockVisit> {
  // From stdin with the project as resolveDir: the package and msw resolve from the project, not from here.
  const page = await bundleForBrowser(readFileSync(fixture, 'utf8'), app, fixture)
  const served: string[] = []
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    served.push(path)
    const [type, body] =
      path === '/page.js'
        ? ['text/javascript', page]
        : path === '/not-mocked.txt'
          ? ['text/plain', 'from the server']
          : path === '/mockServiceWorker.js'
            ? ['text/javascript', readFileSync(join(publicDir, 'mockServiceWorker.js'), 'utf8')]
            : ['text/html', indexHtml]
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' })
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const context = await (await sharedChromium()).newContext()
  try {
    const tab = await context.newPage()
    const messages: string[] = []
    tab.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${query}`
    const visit = async () => {
      await tab.goto(url)
      return (await tab
        .waitForFunction(() => (window as { outcome?: unknown }).outcome, undefined, {
          timeout: 30_000,
        })
        .then((handle) => handle.jsonValue())) as BrowserMockVisit['outcome']
    }
    let outcome = await visit()
    if (!outcome.error) {
      served.length = 0
      outcome = await visit()
    }
    return { outcome, console: messages, served }
  } finally {
    await context.close()
    await new Promise((resolve) => server.close(resolve))
  }
}
