// A run's checks in the caller's own thread, without vitest: runConformance with `inThisThread`.
import { type StagedCheck, stageChecks } from './check-stages.ts'
import type { ConformanceTarget } from './engine/index.ts'
import { closeRunClient } from './network/index.ts'
import type { ConformanceReport } from './reporting/index.ts'
import {
  blockLine,
  type CheckMeta,
  checkLabel,
  checksAtOnce,
  erroredResult,
  judgedReport,
  type ReportFacts,
  unfinishedReport,
} from './run/index.ts'

/**
 * Runs the checks in this thread as vitest runs the suite file in its own: in the same blocks and order,
 * `checksAtOnce` at a time, a line per block as its last check ends, the same report; past the run's
 * deadline (and a backstop of 5 s) it stops, naming what was pending. What it saves is vitest's start and a
 * thread of its own (about 0.8 s of CPU a run): for a caller that runs many, such as the suite's proofs.
 */
export async function runInThisThread(
  target: ConformanceTarget,
  run: { facts: ReportFacts; print: (line: string) => void },
): Promise<ConformanceReport> {
  const startedAt = new Date()
  const queue = stageChecks(target).flatMap((block) => block.checks.map((check) => ({ block, check })))
  const metas = new Map<StagedCheck, CheckMeta>()
  const running = new Set<string>()
  let next = 0
  const startNext = async (): Promise<void> => {
    const item = queue[next++]
    if (!item) return
    const { block, check } = item
    const label = checkLabel(block.name, check.name)
    running.add(label)
    const meta = await check.run().catch((error: unknown) => ({
      result: erroredResult(block.name, check.name, error instanceof Error ? error.message : String(error)),
    }))
    running.delete(label)
    metas.set(check, meta)
    const results = block.checks.map((one) => metas.get(one)?.result)
    if (results.every((result) => result !== undefined)) run.print(blockLine(block.name, results))
    return startNext()
  }
  let timer: NodeJS.Timeout | undefined
  const backstop = new Promise<'deadline'>((done) => {
    timer = setTimeout(() => done('deadline'), target.runDeadline - Date.now() + 5_000)
  })
  const checking = Promise.all(Array.from({ length: Math.min(checksAtOnce, queue.length) }, startNext))
  const finished = await Promise.race([checking.then(() => 'done' as const), backstop])
  clearTimeout(timer)
  closeRunClient(target.network)
  if (finished === 'deadline') return unfinishedReport(run.facts, startedAt, [...running])
  const ended = queue.flatMap(({ check }) => metas.get(check) ?? [])
  return judgedReport(
    ended.map((meta) => meta.result),
    ended.find((meta) => meta.run)?.run,
    run.facts,
    startedAt,
  )
}
