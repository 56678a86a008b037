// The Next recipe's Playwright config: the HTTP mock and the built app (next start, and again without session forwarding as the negative control) as webServer entries, four workers, a session each.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { mockRunId } from 'animal-store-contract-kit/playwright'

// The recipe's test (next-recipe.browser.test.ts) picks free ports and says where the build and the mock
// command are; in your project the defaults below do.
const mock = `http://127.0.0.1:${process.env.MOCK_PORT ?? 4010}`
const app = `http://127.0.0.1:${process.env.APP_PORT ?? 3000}`
// The same build again, forwarding no session: the negative control, where isolation must fail.
const control = `http://127.0.0.1:${process.env.CONTROL_PORT ?? 3001}`
mockRunId() // ANIMAL_STORE_MOCK_RUN: session names run-<id>-worker-<n>, inherited by the workers
process.env.ANIMAL_STORE_MOCK_URL ??= mock // where resetMockSession() resets, in every worker

/** A webServer entry for `next start` of the built app, its session forwarding on (`'1'`) or off. */
function nextStart(url: string, sessions: '1' | '0') {
  return {
    command: `npx next start --port ${new URL(url).port} --hostname 127.0.0.1`,
    cwd: process.env.NEXT_APP_DIR ?? '.',
    url: `${url}/api/pets`,
    reuseExistingServer: !process.env.CI,
    env: {
      API_BASE_URL: `${mock}/v1`,
      API_KEY: 'animal-store-mock-key', // the mock's default key
      ANIMAL_STORE_MOCK_SESSIONS: sessions, // read by the running server (lib/api.ts), not at build time
      NEXT_TELEMETRY_DISABLED: '1',
    },
  }
}

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 4,
  fullyParallel: true,
  retries: 0,
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? join(tmpdir(), 'animal-store-next-recipe-results'),
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['json'], ['line']] : [['line']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      ...(process.env.CHROMIUM_PATH ? { executablePath: process.env.CHROMIUM_PATH } : {}),
      args: JSON.parse(process.env.CHROMIUM_ARGS ?? '[]') as string[],
    },
  },
  projects: [
    { name: 'sessions', use: { baseURL: app } },
    // Only the neighbour test, which marks itself as failing here: a pass would mean the test cannot fail.
    { name: 'no-forwarding', use: { baseURL: control }, grep: /neighbour/ },
  ],
  webServer: [
    {
      // Every session starts with no pets, so a pet on a page is one some test added.
      command: `${process.env.ANIMAL_STORE_MOCK_COMMAND ?? 'npx animal-store-mock'} --port ${new URL(mock).port} --pets 0`,
      url: `${mock}/__mock/health`,
      reuseExistingServer: !process.env.CI,
    },
    nextStart(app, '1'),
    nextStart(control, '0'),
  ],
})
