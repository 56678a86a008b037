import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'

// The example app's Playwright tests, four workers at once, each test with its own mock store
// (animal-store-contract-kit/playwright). mocks/example/playwright-workers.browser.test.ts runs them with
// the example app's dev server and the Chromium the repository finds (CHROMIUM_PATH, CHROMIUM_ARGS):
// Playwright's own browser download is never needed.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 4,
  fullyParallel: true,
  retries: 0,
  // Traces and screenshots of failures: outside the repository unless told where.
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? join(tmpdir(), 'animal-store-playwright-results'),
  timeout: 60_000,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['json'], ['line']] : [['line']],
  use: {
    browserName: 'chromium',
    baseURL: process.env.EXAMPLE_URL ?? 'http://127.0.0.1:5173/',
    launchOptions: {
      ...(process.env.CHROMIUM_PATH ? { executablePath: process.env.CHROMIUM_PATH } : {}),
      args: JSON.parse(process.env.CHROMIUM_ARGS ?? '[]') as string[],
    },
  },
})
