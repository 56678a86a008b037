// The report's peakRssBytes: the peak resident memory the operating system reports for each of a run's processes, summed.
import { readFileSync } from 'node:fs'

/** The processes of a run besides this one, whose peaks the report adds to this process's own. */
export interface RunProcesses {
  /** The process that started this run and watches it (the command's outer process), while it does. */
  watcher?: number | undefined
  /** Prism's, while it runs in front of the server. */
  prism?: number | undefined
}

/**
 * The sum of each process's own peak resident memory, as the operating system reports it: this process
 * (its threads, the suite's among them, included), the process watching it and Prism. Each peaked at its own
 * moment, so the sum is an upper bound of what the group held at once, never below it. Another process's
 * peak is read from Linux's /proc (VmHWM); elsewhere only this process's own is counted. The watcher counts
 * only while it is still this process's parent: gone, its pid may be anyone's.
 * @example report.peakRssBytes = peakRssOfRun({ watcher: process.ppid })
 */
export function peakRssOfRun(processes: RunProcesses): number {
  const own = process.resourceUsage().maxRSS * 1024
  const watcher = processes.watcher === process.ppid ? peakRssOf(processes.watcher) : undefined
  return own + (watcher ?? 0) + (peakRssOf(processes.prism) ?? 0)
}

/** A process's peak resident memory so far (VmHWM in /proc/<pid>/status), or undefined where unknown. */
export function peakRssOf(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined
  try {
    const kilobytes = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024
  } catch {
    return undefined
  }
}
