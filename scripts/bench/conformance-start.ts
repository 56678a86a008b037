// Times full conformance runs beside vitest running one trivial file, alternately, both as whole processes.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findFreePort } from '../../mocks/local-port.ts'
import { boundedRequest } from '../../suites/network/index.ts'
import { benchKey, launchMock } from './launch-server.ts'
import { median } from './median.ts'

export interface ConformanceStart {
  /** Median wall time of `vitest run` on one trivial test file, in ms: the floor of any vitest run. */
  trivialVitestMs: number
  /** Median wall time of a full `npm run conformance` against a correct local server, in ms. */
  conformanceRunMs: number
  /** conformanceRunMs / trivialVitestMs: the target is at most 1.5. */
  ratio: number
}

const root = fileURLToPath(new URL('../..', import.meta.url))
// vitest's bin is not among its exports: found beside its package.json.
const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs')

function wallMs(args: string[], cwd: string): number {
  const started = performance.now()
  const run = spawnSync(process.execPath, args, {
    cwd,
    stdio: 'pipe',
    timeout: 120_000,
    env: { ...process.env, CI: '1' },
  })
  if (run.status !== 0)
    throw new Error(`${args.join(' ')} failed (${run.status}):\n${run.stdout}\n${run.stderr}`)
  return performance.now() - started
}

// Every run starts from the store `npm start` serves (its default seed), so every run does the same work,
// the work a developer's run against the local mock does (the mock's test control, outside the API; not
// timed). Sent as the suite sends: a kept-alive connection the mock closed meanwhile is retried.
async function freshStore(port: number): Promise<void> {
  const outcome = await boundedRequest(
    `http://127.0.0.1:${port}/__mock/reset`,
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' },
    { requestTimeoutMs: 10_000, maxResponseBytes: 1024 * 1024, runDeadline: Date.now() + 10_000 },
  )
  if (!outcome.ok || outcome.response.status !== 200)
    throw new Error(
      `Resetting the mock's store failed: ${outcome.ok ? `${outcome.response.status} ${outcome.response.body}` : outcome.message}`,
    )
}

/**
 * Times, alternately and in the same run, vitest running one trivial test file (no config, its own
 * folder) and a full conformance run against our mock (its own process, back to its default store before
 * every run so that every run does the same work). Both are whole processes, start-up included: that is
 * what a pipeline waits for.
 */
export async function measureConformanceStart(rounds = 7): Promise<ConformanceStart> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-conformance-'))
  writeFileSync(join(scratch, 'trivial.test.mjs'), "import { it } from 'vitest'\nit('passes', () => {})\n")
  const port = await findFreePort()
  const mock = await launchMock(port)
  const conformance = [
    join(root, 'scripts/launch.mjs'),
    join(root, 'scripts/conformance.ts'),
    '--base-url',
    `http://127.0.0.1:${port}/v1`,
    '--api-key',
    benchKey,
    '--report-dir',
    join(scratch, 'reports'),
  ]
  try {
    // One unmeasured run of each warms the file cache and the launcher's bundle.
    wallMs([vitestBin, 'run', '--root', scratch], scratch)
    wallMs(conformance, root)
    const trivial: number[] = []
    const full: number[] = []
    for (let round = 0; round < rounds; round++) {
      trivial.push(wallMs([vitestBin, 'run', '--root', scratch], scratch))
      await freshStore(port)
      full.push(wallMs(conformance, root))
    }
    const trivialVitestMs = median(trivial)
    const conformanceRunMs = median(full)
    return { trivialVitestMs, conformanceRunMs, ratio: conformanceRunMs / trivialVitestMs }
  } finally {
    await mock.stop()
    rmSync(scratch, { recursive: true, force: true })
  }
}
