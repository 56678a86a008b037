import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { verifierFailures } from '../../suites/proof/pact-verify.ts'
import { serverA, startReference } from '../../suites/proof/reference-servers.ts'
import { defaultApiKey } from '../core/api-keys.ts'
import { findChromium } from '../find-chromium.ts'
import { findFreePort } from '../local-port.ts'
import { type MockProcess, startMockProcess } from '../proof/start-mock-process.ts'
import { type ExampleServer, startExampleServer } from './serve-example.ts'

// The example app's Playwright suite (mocks/example/playwright/) run by Playwright's own runner with 4
// workers, in the Chromium the repository finds (no Playwright browser download), against the example
// app's dev server. Each test has its own mock store through animal-store-contract-kit/playwright.
const config = fileURLToPath(new URL('playwright/playwright.config.ts', import.meta.url))
const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/test/package.json')), 'cli.js')
const work = mkdtempSync(join(tmpdir(), 'animal-store-playwright-'))
const pacts = join(work, 'pacts')
let example: ExampleServer
let http: MockProcess

beforeAll(async () => {
  ;[example, http] = await Promise.all([
    startExampleServer({ port: await findFreePort() }),
    startMockProcess(['--seed', '11', '--pets', '3']),
  ])
}, 120_000)
afterAll(async () => {
  await example?.close()
  expect(await http?.stop()).toBe(0)
  rmSync(work, { recursive: true, force: true })
})

interface JsonReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  suites: JsonSuite[]
}
interface JsonSuite {
  suites?: JsonSuite[]
  specs: {
    title: string
    tests: {
      annotations: { type: string; description?: string }[]
      results: { parallelIndex: number; status: string; annotations?: { type: string }[] }[]
    }[]
  }[]
}

it('runs the example app’s Playwright tests with 4 workers, each test (or worker session) creating and listing only its own pets', async () => {
  const chromium = await findChromium()
  const report = join(work, 'report.json')
  const run = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [cli, 'test', '--config', config, '--workers', '4'],
      {
        env: {
          ...process.env,
          EXAMPLE_URL: example.url,
          ANIMAL_STORE_MOCK_URL: http.origin,
          // Two runs sharing this mock would each give their own id (mockRunId() makes one).
          ANIMAL_STORE_MOCK_RUN: 'example',
          CHROMIUM_PATH: chromium.executablePath,
          CHROMIUM_ARGS: JSON.stringify(chromium.args),
          PLAYWRIGHT_JSON_OUTPUT_NAME: report,
          PLAYWRIGHT_OUTPUT_DIR: join(work, 'results'),
          PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
          PACT_DIR: pacts,
        },
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    )
  })
  expect(run.code, run.output).toBe(0)
  const json = JSON.parse(readFileSync(report, 'utf8')) as JsonReport
  expect(json.stats).toMatchObject({ expected: 20, unexpected: 0, flaky: 0, skipped: 0 })
  const results = json.suites.flatMap(function specsOf(suite): JsonSuite['specs'] {
    return [...suite.specs, ...(suite.suites ?? []).flatMap(specsOf)]
  })
  const workers = new Set(
    results.flatMap((spec) => spec.tests.flatMap((test) => test.results.map((r) => r.parallelIndex))),
  )
  // Four workers ran at once (parallel indexes 0-3), with no test seeing another's pets.
  expect([...workers].sort()).toEqual([0, 1, 2, 3])
  // Only the test whose page sent no API request carries the fixture's warning, and it passed.
  const warned = results.filter((spec) =>
    spec.tests.some((test) =>
      [...test.annotations, ...test.results.flatMap((r) => r.annotations ?? [])].some(
        (annotation) => annotation.type === 'warning',
      ),
    ),
  )
  expect(warned.map((spec) => spec.title)).toEqual([
    'a page whose API calls the browser never makes gets the fixture’s warning, not a failure',
  ])
  expect(run.output).toContain('Warning: The browser sent no API request in this test')
  // The HTTP mock held one session per worker of this run besides its default one.
  const health = await (await fetch(`${http.origin}/__mock/health`)).json()
  expect(health.sessions.active.map((session: { name: string }) => session.name).sort()).toEqual([
    'default',
    'run-example-worker-0',
    'run-example-worker-1',
    'run-example-worker-2',
    'run-example-worker-3',
  ])
}, 360_000)

// The same run, recorded: four workers merged one Pact file, which Pact's own Verifier then passes on the
// HTTP mock (a server the recording never talked to) with the kit's state handlers.
it('records the Playwright tests into one Pact file that Pact’s Verifier passes on the HTTP mock and a correct server', async () => {
  const file = join(pacts, 'example-app-animal-store.json')
  const pact = JSON.parse(readFileSync(file, 'utf8')) as {
    interactions: { key: string; description: string; comments?: { testname?: string } }[]
  }
  const operations = pact.interactions.map((interaction) => /— (\w+): /.exec(interaction.description)?.[1])
  // The page listed and created in many tests; the injected 503 and the override are not the API's.
  expect(operations.sort()).toEqual(['createPet', 'listPets'])
  expect(new Set(pact.interactions.map((interaction) => interaction.key)).size).toBe(2)
  expect(pact.interactions.every((interaction) => interaction.comments?.testname)).toBe(true)
  const reference = await startReference(serverA)
  try {
    // The HTTP mock, and a correct server the recording never talked to.
    for (const server of [{ baseUrl: http.baseUrl, apiKey: defaultApiKey }, reference])
      expect(await verifierFailures(file, server)).toEqual([])
  } finally {
    await reference.close()
  }
})
