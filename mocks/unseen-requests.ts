// The warning the Playwright `animalStore` fixture gives a test whose page sent it no request: page.route misses server-side fetches.

/**
 * Says why a test's browser sent no API request, or undefined when it sent some. `page.route` sees only what the browser sends: an app that fetches on its server (SSR, server
 * components, route handlers) reaches the real API or nothing, never this mock.
 */
export function unseenRequestsWarning(apiRequests: number): string | undefined {
  if (apiRequests > 0) return undefined
  return 'The browser sent no API request in this test, so the animalStore mock saw none. page.route (which it answers through) sees only what the browser sends: fetches made on the server (SSR, server components, route handlers, Server Actions) never reach it. For a server-rendered app, run the HTTP mock (animal-store-mock) with httpMockTest and forward X-Mock-Session from the app\'s server (docs/mock.md, "Server-rendered apps"). A test that sends no API request on purpose can ignore this.'
}
