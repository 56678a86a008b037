import { startBrowserMock } from 'animal-store-contract-kit/mocks/browser'

// A page that uses the installed package's browser mock as an app would, bundled against the scratch
// project's own msw (2 or 3) by scripts/proof/browser-mock-page.ts. What happened goes to window.outcome.
const worker = new URLSearchParams(location.search).get('worker')
const outcome: Record<string, unknown> = {}
try {
  await startBrowserMock({ baseUrl: '/v1', quiet: true, ...(worker ? { serviceWorkerUrl: worker } : {}) })
  const pets = await fetch('/v1/pets?limit=3', { headers: { authorization: 'Bearer animal-store-mock-key' } })
  outcome.mocked = { status: pets.status, count: ((await pets.json()) as unknown[]).length }
  outcome.unmocked = await (await fetch('/not-mocked.txt')).text()
} catch (error) {
  outcome.error = (error as Error).message
}
Object.assign(window, { outcome })
