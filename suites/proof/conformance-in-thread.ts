// A conformance run in the test's own thread, for the proofs that run one per server by the dozen.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ConformanceReport } from '../reporting/conformance-report.ts'
import { type ConformanceOptions, runConformance } from '../run-conformance.ts'
import { scratchDir } from './scratch-dir.ts'

export interface ThreadRun {
  code: number
  /** What the run printed, one line after another. */
  output: string
  /** The JSON report the run wrote, read back from its folder. */
  report: ConformanceReport | undefined
}

/**
 * `runConformance` with `inThisThread`: the command's stages, checks and reports without its two processes
 * and vitest's start (about 1 s of CPU a run), for the proofs whose every case is a whole run against a
 * server of their own (realistic, broken, reference). What only the command does (its options, exit codes,
 * watch and deadline from outside, memory) is proved through the command (conformance-command.ts).
 */
export async function runConformanceInThread(
  options: Pick<ConformanceOptions, 'baseUrl' | 'apiKey' | 'seed' | 'maxExamples' | 'readOnly' | 'viaPrism'>,
): Promise<ThreadRun> {
  const reportDir = scratchDir('conformance-')
  const lines: string[] = []
  const { exitCode } = await runConformance({
    ...options,
    reportDir,
    progress: false,
    print: (line) => lines.push(line),
    inThisThread: true,
  })
  let report: ConformanceReport | undefined
  try {
    report = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8'))
  } catch {
    report = undefined
  }
  return { code: exitCode, output: lines.join('\n'), report }
}
