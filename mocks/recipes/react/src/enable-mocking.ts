/// <reference types="vite/client" />
// The React recipe's switch for the in-browser mock: dev server and flag only, so builds ship none of it.

/**
 * Starts the in-browser mock before the app's first request, when both hold: this is the dev server
 * (`import.meta.env.DEV`) and the flag is on (`VITE_MOCK_API=true`, e.g. in `.env.development.local`).
 * In `vite build` DEV is the constant false, so the bundler drops the dynamic import below, and with it
 * msw and faker: the production bundle holds none of the mock.
 */
export async function enableMocking(apiBaseUrl: string): Promise<void> {
  if (import.meta.env.DEV && import.meta.env.VITE_MOCK_API === 'true') {
    const { startBrowserMock } = await import('animal-store-contract-kit/mocks/browser')
    // Write the worker script once (and after upgrading msw): npx animal-store-mock worker public
    await startBrowserMock({ baseUrl: apiBaseUrl, quiet: true })
  }
}
