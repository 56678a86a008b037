// CPU seconds a process tree has used, read from /proc: what a server under load cost, for the bench.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

// Clock ticks per second of /proc's utime and stime (100 on every common Linux).
const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100

/**
 * CPU seconds a process has used so far, user plus system (proc(5): fields 14 and 15 of
 * /proc/<pid>/stat), or NaN where /proc does not exist. Its own CPU per request is a steadier figure than
 * its request rate on a shared machine: another process taking the core slows both, not the work.
 */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces; count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
  } catch {
    return Number.NaN
  }
}
