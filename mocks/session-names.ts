// Session names per test run (`run-<id>-worker-<n>`) and the environment variables that carry the run and the mock's URL.
import { randomBytes } from 'node:crypto'

/** Carries a test run's id from the config (runner) process to every worker it starts. */
export const mockRunVariable = 'ANIMAL_STORE_MOCK_RUN'
/** The HTTP mock's URL (`http://127.0.0.1:4010`, a `/v1` path may follow) for `resetMockSession`. */
export const mockUrlVariable = 'ANIMAL_STORE_MOCK_URL'

// Session names are at most 64 of these (mocks/core/sessions.ts); `run-` and `-worker-NNNN` take 16.
const runIdPattern = /^[A-Za-z0-9._~-]{1,40}$/

/**
 * The id of this test run: `ANIMAL_STORE_MOCK_RUN` when set, else a new random one written there, so the
 * workers a runner starts afterwards (Playwright's, vitest's) inherit the same id. Call it in the config
 * file, which the runner reads before it starts any worker.
 * @example process.env.ANIMAL_STORE_MOCK_RUN ?? mockRunId() // in playwright.config.ts or vitest.config.ts
 */
export function mockRunId(env: Record<string, string | undefined> = process.env): string {
  const given = env[mockRunVariable]
  if (given !== undefined && given !== '') return checkedRunId(given, mockRunVariable)
  const id = randomBytes(4).toString('hex')
  env[mockRunVariable] = id
  return id
}

/**
 * The `X-Mock-Session` name of one worker: `run-<run>-worker-<worker>`, or `worker-<worker>` without a run.
 * Two test runs sharing one HTTP mock each give a run id, and never meet.
 * @example mockSessionName(testInfo.parallelIndex, process.env.ANIMAL_STORE_MOCK_RUN) // 'run-3f9a0c21-worker-2'
 */
export function mockSessionName(worker: number | string, run?: string): string {
  if (!/^\d{1,6}$/.test(String(worker)))
    throw new Error(`A worker index is a whole number; got ${JSON.stringify(String(worker).slice(0, 40))}.`)
  if (run === undefined || run === '') return `worker-${worker}`
  return `run-${checkedRunId(run, 'the run id')}-worker-${worker}`
}

/** The HTTP mock's origin from `ANIMAL_STORE_MOCK_URL`, or undefined when it is not set. */
export function mockOriginFrom(env: Record<string, string | undefined> = process.env): string | undefined {
  const url = env[mockUrlVariable]
  if (url === undefined || url === '') return undefined
  try {
    return new URL(url).origin
  } catch {
    // Not echoed: a URL may carry credentials.
    throw new Error(
      `${mockUrlVariable} is not a URL: set it to the HTTP mock's, such as http://127.0.0.1:4010.`,
    )
  }
}

function checkedRunId(run: string, where: string): string {
  if (!runIdPattern.test(run))
    throw new Error(
      `${where} must be 1 to 40 letters, digits, ".", "_", "~" or "-" (it becomes part of an X-Mock-Session name); got ${JSON.stringify(run.slice(0, 80))}.`,
    )
  return run
}
