// One full conformance run as a whole process, timed, with the report it wrote.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ConformanceReport } from '../../suites/reporting/index.ts'
import { benchKey } from './launch-server.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

export interface TimedConformanceRun {
  wallSeconds: number
  exitCode: number
  report: ConformanceReport
}

/**
 * Runs `npm run conformance` (its launcher, as a pipeline would) against `baseUrl` with the bench's key,
 * awaited without blocking this process (a proxy in it may be serving the run), and reads its report.
 * @example const { wallSeconds, report } = await timedConformanceRun(`${origin}/v1`, ['--seed', '7'], 300_000)
 */
export async function timedConformanceRun(
  baseUrl: string,
  extraArgs: readonly string[],
  timeoutMs: number,
): Promise<TimedConformanceRun> {
  const reports = mkdtempSync(join(tmpdir(), 'bench-conformance-'))
  try {
    const started = performance.now()
    const exitCode = await new Promise<number>((done) =>
      execFile(
        process.execPath,
        [
          join(root, 'scripts/launch.mjs'),
          join(root, 'scripts/conformance.ts'),
          '--base-url',
          baseUrl,
          ...extraArgs,
          '--report-dir',
          reports,
        ],
        {
          cwd: root,
          env: { ...process.env, CONFORMANCE_API_KEY: benchKey },
          timeout: timeoutMs,
          maxBuffer: 20_000_000,
        },
        (error) => done(error ? Number(error.code ?? 1) : 0),
      ),
    )
    const wallSeconds = (performance.now() - started) / 1000
    const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport
    return { wallSeconds, exitCode, report }
  } finally {
    rmSync(reports, { recursive: true, force: true })
  }
}
