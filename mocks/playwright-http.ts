// `httpMockTest`: Playwright's test for pages that talk to a running HTTP mock, one X-Mock-Session per worker. Needs no MSW.
import { test as base } from '@playwright/test'
import type { ResetOptions } from './core/reset-options.ts'
import { mockOriginFrom, mockRunVariable, mockSessionName, mockUrlVariable } from './session-names.ts'

export interface HttpMockSessionFixtures {
  /**
   * This run's id, for session names `run-<id>-worker-<n>` (default: env `ANIMAL_STORE_MOCK_RUN`, which
   * `mockRunId()` sets in the config; without one, `worker-<n>`).
   */
  mockRun: string | undefined
  /** The HTTP mock's origin `resetMockSession` resets (default: env `ANIMAL_STORE_MOCK_URL`). */
  mockOrigin: string | undefined
  /** The `X-Mock-Session` name every request of this test carries: one per Playwright worker (and run). */
  mockSession: string
  /**
   * Resets this worker's session of the HTTP mock, with the keys of `POST /__mock/reset`: at `mockOrigin`
   * (or `ANIMAL_STORE_MOCK_URL`), or at the origin given first.
   */
  resetMockSession: {
    (options?: ResetOptions): Promise<void>
    (origin: string, options?: ResetOptions): Promise<void>
  }
}

/**
 * Playwright's `test` for pages that talk to the HTTP mock (`animal-store-mock`) rather than to a mock in
 * the test: every request the page sends carries `X-Mock-Session: worker-<index>` (with a run id,
 * `run-<id>-worker-<index>`), so parallel workers, and parallel runs, share one mock process without
 * seeing each other's pets. It never loads MSW or @msw/playwright.
 * @example
 * import { httpMockTest as test } from 'animal-store-contract-kit/playwright'
 * test.beforeEach(async ({ resetMockSession }) => resetMockSession()) // at ANIMAL_STORE_MOCK_URL
 */
export const httpMockTest = base.extend<HttpMockSessionFixtures>({
  mockRun: [process.env[mockRunVariable], { option: true }],
  mockOrigin: [undefined, { option: true }],
  mockSession: async ({ mockRun }, use, testInfo) => {
    await use(mockSessionName(testInfo.parallelIndex, mockRun))
  },
  extraHTTPHeaders: async ({ extraHTTPHeaders, mockSession }, use) => {
    await use({ ...extraHTTPHeaders, 'X-Mock-Session': mockSession })
  },
  resetMockSession: async ({ request, mockSession, mockOrigin }, use) => {
    const reset = async (first?: string | ResetOptions, second?: ResetOptions) => {
      const origin = typeof first === 'string' ? first : (mockOrigin ?? mockOriginFrom())
      const options = (typeof first === 'string' ? second : first) ?? {}
      if (origin === undefined)
        throw new Error(
          `resetMockSession needs the HTTP mock's origin: set ${mockUrlVariable} (e.g. http://127.0.0.1:4010), test.use({ mockOrigin }), or pass it first.`,
        )
      const response = await request.post(`${origin}/__mock/reset`, {
        headers: { 'content-type': 'application/json', 'x-mock-session': mockSession },
        data: options,
      })
      if (!response.ok())
        throw new Error(
          `Failed to reset mock session ${mockSession}: ${response.status()} ${await response.text()}`,
        )
    }
    await use(reset)
  },
})
