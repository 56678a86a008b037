import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { findChromium } from '../../find-chromium.ts'
import { findFreePort } from '../../local-port.ts'
import { writeServiceWorker } from '../../service-worker-file.ts'

// The Next recipe as a team ships it: copied into a project of its own, built once with `next build`
// (webpack, withMockGuard in next.config.ts), served by `next start` and tested by Playwright's own runner
// with 4 workers against one HTTP mock, all started by the webServer entries of its playwright.config:
// one Playwright run, which also holds the negative control (the project `no-forwarding`).
const recipe = fileURLToPath(new URL('.', import.meta.url))
const repository = fileURLToPath(new URL('../../../', import.meta.url))
const startMock = join(repository, 'scripts/start-mock.ts')
const require = createRequire(import.meta.url)
const playwrightCli = join(dirname(require.resolve('@playwright/test/package.json')), 'cli.js')
const nextCli = join(dirname(require.resolve('next/package.json')), 'dist/bin/next')
const work = mkdtempSync(join(tmpdir(), 'animal-store-next-recipe-'))
const project = join(work, 'app')

interface Run {
  code: number
  output: string
}

function run(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      {
        cwd: options.cwd ?? repository,
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...options.env },
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    )
  })
}

const checkBundle = (dir: string) => run(['--import', 'tsx', startMock, 'check-bundle', dir])

let build: Run
let tests: Run & { stats: JsonReport['stats']; specs: JsonSuite['specs'] }

beforeAll(async () => {
  for (const file of ['app', 'lib', 'next.config.ts', 'with-mock-guard.ts', 'mock-off.js'])
    cpSync(join(recipe, file), join(project, file), { recursive: true })
  symlinkSync(join(repository, 'node_modules'), join(project, 'node_modules'), 'dir')
  build = await run([nextCli, 'build'], { cwd: project })
  if (build.code === 0) tests = await playwright(['--workers', '4'])
}, 900_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

interface JsonReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  suites: JsonSuite[]
}
interface JsonSuite {
  suites?: JsonSuite[]
  specs: {
    title: string
    tests: {
      projectName: string
      annotations: { type: string; description?: string }[]
      results: {
        parallelIndex: number
        status: string
        error?: { message?: string }
        annotations?: { type: string; description?: string }[]
      }[]
    }[]
  }[]
}

/** Runs the recipe's Playwright tests on fresh ports: the run's output and its JSON report. */
async function playwright(args: string[]) {
  const chromium = await findChromium()
  const report = join(work, `report-${Date.now()}.json`)
  const result = await run(
    [playwrightCli, 'test', '--config', join(recipe, 'playwright/playwright.config.ts'), ...args],
    {
      env: {
        MOCK_PORT: String(await findFreePort()),
        APP_PORT: String(await findFreePort()),
        CONTROL_PORT: String(await findFreePort()),
        NEXT_APP_DIR: project,
        ANIMAL_STORE_MOCK_COMMAND: `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(startMock)}`,
        CHROMIUM_PATH: chromium.executablePath,
        CHROMIUM_ARGS: JSON.stringify(chromium.args),
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
        PLAYWRIGHT_OUTPUT_DIR: join(work, 'results'),
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
        CI: '1',
      },
    },
  )
  // No report means Playwright stopped before its tests (a config error, a webServer that never answered).
  if (!existsSync(report))
    throw new Error(`Playwright wrote no report (exit ${result.code}):\n${result.output}`)
  const json = JSON.parse(readFileSync(report, 'utf8')) as JsonReport
  const specs = json.suites.flatMap(function specsOf(suite): JsonSuite['specs'] {
    return [...suite.specs, ...(suite.suites ?? []).flatMap(specsOf)]
  })
  return { ...result, stats: json.stats, specs }
}

it('builds with next build, withMockGuard in its config, and check-bundle finds none of the mock: exit 0', async () => {
  expect(build.code, build.output).toBe(0)
  expect(build.output).toMatch(/ƒ \/\s/) // the page is rendered per request, not at build time
  const checked = await checkBundle(project)
  expect(checked.code, checked.output).toBe(0)
  expect(checked.output).toContain('a Next.js project; searched .next/static, .next/server')
})

it('runs the Playwright tests with 4 workers against next start and one HTTP mock, each worker in its own session', () => {
  expect(tests.code, tests.output).toBe(0)
  // 9 in the project `sessions`, and the neighbour test failing as it must in `no-forwarding`.
  expect(tests.stats).toMatchObject({ expected: 10, unexpected: 0, flaky: 0, skipped: 0 })
  const isolated = tests.specs.flatMap((spec) => spec.tests).filter((test) => test.projectName === 'sessions')
  expect(isolated).toHaveLength(9)
  const workers = new Set(isolated.flatMap((test) => test.results.map((r) => r.parallelIndex)))
  expect([...workers].sort()).toEqual([0, 1, 2, 3])
  const sessions = new Set(
    isolated.flatMap((test) =>
      [...test.annotations, ...test.results.flatMap((r) => r.annotations ?? [])]
        .filter((annotation) => annotation.type === 'session')
        .map((annotation) => annotation.description),
    ),
  )
  // One session per worker of this run: run-<id>-worker-<n>, the id the config made.
  expect([...sessions].map((session) => session?.replace(/^run-[0-9a-f]{8}-/, '')).sort()).toEqual([
    'worker-0',
    'worker-1',
    'worker-2',
    'worker-3',
  ])
})

it('fails the isolation test when the app forwards no session (ANIMAL_STORE_MOCK_SESSIONS=0): the neighbour sees the pet', () => {
  const control = tests.specs
    .flatMap((spec) => spec.tests)
    .filter((test) => test.projectName === 'no-forwarding')
  expect(control).toHaveLength(1)
  const [result] = control[0]?.results ?? []
  expect(result?.status).toBe('failed')
  // Failed at the neighbour's page, which listed the other session's pet: not at a timeout or a start.
  const message = stripVTControlCharacters(result?.error?.message ?? '')
  expect(message).toMatch(/Received[\s\S]*"Pet of run-[0-9a-f]{8}-worker-\d, kept from its neighbour"/)
})

it('names public/mockServiceWorker.js once when the built app serves it from public/: exit 1', async () => {
  writeServiceWorker(join(project, 'public'))
  const checked = await checkBundle(project)
  expect(checked.code, checked.output).toBe(1)
  expect(checked.output).toContain('ships the Animal Store mock (1 file)')
  expect(checked.output.match(/public\/mockServiceWorker\.js/g)).toHaveLength(1)
})
