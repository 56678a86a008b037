// Runs `npm run conformance` as a user does, in its own process: the path of every proof of what the command does.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ConformanceReport } from '../reporting/conformance-report.ts'
import { type TreeProcess, watchTreeMemory } from './process-tree-memory.ts'
import { scratchDir } from './scratch-dir.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

export interface CommandRun {
  code: number
  /** stdout then stderr. */
  output: string
  stdout: string
  stderr: string
  reportDir: string
  /** The JSON report, when the run wrote one. */
  report: ConformanceReport | undefined
  /**
   * The most resident memory the command's whole process tree held at once (the command, the run it
   * watches, Prism), sampled from outside every 25 ms: undefined where /proc cannot be read (not Linux).
   */
  peakTreeRssBytes: number | undefined
  /** Who held what at that peak, for a failure message. */
  peakTree: TreeProcess[]
}

/** The most the command's processes held at once: sampled from outside where /proc allows, else the report's. */
export function peakMemoryOf(run: CommandRun): number | undefined {
  return run.peakTreeRssBytes ?? run.report?.peakRssBytes
}

/** Who held what when the tree held the most, in one line for a failure message: `231 MB: 45 MB node …`. */
export function describePeakTree(run: CommandRun): string {
  const megabytes = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`
  const processes = run.peakTree.map(
    (process) => `${megabytes(process.rssBytes)} ${process.command} (${process.pid})`,
  )
  return `${megabytes(peakMemoryOf(run) ?? 0)}: ${processes.join(', ')}`
}

/**
 * Runs `npm run conformance` as a user does (its own process, the same launcher and entry point), for
 * tests of what the command does (a whole run per server, by the dozen, goes through conformance-in-thread.ts).
 * Bounded by `timeoutMs`.
 */
export function runConformanceCommand(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; reportDir?: string } = {},
): Promise<CommandRun> {
  const reportDir = options.reportDir ?? scratchDir('conformance-')
  const withDir = args.includes('--report-dir') ? args : [...args, '--report-dir', reportDir]
  return new Promise((resolve) => {
    let memory: ReturnType<typeof watchTreeMemory> | undefined
    const child = execFile(
      process.execPath,
      ['scripts/launch.mjs', 'scripts/conformance.ts', ...withDir],
      {
        cwd: root,
        env: { ...process.env, ...options.env },
        timeout: options.timeoutMs ?? 180_000,
        maxBuffer: 20_000_000,
      },
      (error, stdout, stderr) => {
        const peak = memory?.stop()
        let report: ConformanceReport | undefined
        try {
          report = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8'))
        } catch {
          report = undefined
        }
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          output: stdout + stderr,
          stdout,
          stderr,
          reportDir,
          report,
          peakTreeRssBytes: peak?.bytes,
          peakTree: peak?.processes ?? [],
        })
      },
    )
    memory = watchTreeMemory(child.pid)
  })
}
