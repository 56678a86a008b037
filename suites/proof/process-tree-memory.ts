// Samples from outside the resident memory of a process and all its descendants, as Linux's /proc shows it.
import { readdirSync, readFileSync } from 'node:fs'

/** One process of the tree at the sample where the tree held the most. */
export interface TreeProcess {
  pid: number
  /** Its command line, shortened: what it runs, not every argument. */
  command: string
  rssBytes: number
}

/** The most the tree held at once, as sampled: the sum of every process's VmRSS, and who held what. */
interface TreePeak {
  bytes: number
  processes: TreeProcess[]
}

export interface TreeMemoryWatch {
  /** Samples once more and stops; the peak seen, or undefined where /proc cannot be read (not Linux). */
  stop(): TreePeak | undefined
}

// Bounds on the work of one sample, so that a machine with many processes cannot make the sampler a load
// of its own: processes read for their parent, processes counted in the tree.
const maxNewPerSample = 1024
const maxTreeSize = 64

/**
 * Samples, every `everyMs`, the resident memory (VmRSS) of `rootPid` and every process descended from it
 * (found by each process's parent in /proc/<pid>/stat, since /proc/<pid>/task/<tid>/children needs a
 * kernel option not every Linux has), and keeps the largest sum. A child that has forked and not yet
 * executed its program is left out: its pages are still its parent's. A sample reads the parent of
 * processes it has not seen before and the stat and status of the tree's processes: bounded, whatever else
 * the machine runs.
 * Resident memory counts the pages each process maps, so pages shared between them (the node binary)
 * count once per process: a sum of what each process's own RSS says, as `ps` or a container's view of
 * each would show it. Degrades to undefined where there is no /proc.
 * @example const watch = watchTreeMemory(child.pid); child.on('exit', () => console.log(watch.stop()?.bytes))
 */
export function watchTreeMemory(rootPid: number | undefined, everyMs = 25): TreeMemoryWatch {
  if (rootPid === undefined || process.platform !== 'linux' || statusOf(rootPid) === undefined)
    return { stop: () => undefined }
  const parents = new Map<number, number>()
  const commands = new Map<number, string>()
  let peak: TreePeak | undefined
  const sample = () => {
    const tree = treeOf(rootPid, parents)
    let bytes = 0
    const processes: TreeProcess[] = []
    for (const pid of tree) {
      // Between fork and exec a child's resident pages are its parent's, shared: counted, they would
      // count the parent twice (a 25 ms sample meets that window now and then).
      if (pid !== rootPid && statOf(pid)?.forkedNotExecuted !== false) continue
      const rss = rssOf(statusOf(pid))
      if (rss === undefined) continue
      if (!commands.has(pid)) commands.set(pid, commandOf(pid))
      bytes += rss
      processes.push({ pid, command: commands.get(pid) ?? '', rssBytes: rss })
    }
    if (peak === undefined || bytes > peak.bytes) peak = { bytes, processes }
  }
  sample()
  const timer = setInterval(sample, everyMs)
  timer.unref()
  return {
    stop: () => {
      clearInterval(timer)
      sample()
      return peak
    },
  }
}

/** `root` and its descendants, now: `parents` is brought up to date with the processes that appeared. */
function treeOf(root: number, parents: Map<number, number>): number[] {
  let present: number[]
  try {
    present = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
  } catch {
    return []
  }
  const alive = new Set(present)
  for (const pid of parents.keys()) if (!alive.has(pid)) parents.delete(pid)
  let read = 0
  for (const pid of present) {
    if (parents.has(pid) || read >= maxNewPerSample) continue
    read++
    const parent = statOf(pid)?.parent
    if (parent !== undefined) parents.set(pid, parent)
  }
  const children = new Map<number, number[]>()
  for (const [pid, parent] of parents) {
    const siblings = children.get(parent)
    if (siblings) siblings.push(pid)
    else children.set(parent, [pid])
  }
  const tree = [root]
  for (let index = 0; index < tree.length && tree.length < maxTreeSize; index++)
    for (const child of children.get(tree[index] as number) ?? [])
      if (tree.length < maxTreeSize) tree.push(child)
  return tree
}

// PF_FORKNOEXEC (include/linux/sched.h): set by fork, cleared by exec.
const pfForkNoExec = 0x40

/**
 * The parent of `pid` and whether it has forked without executing yet, from /proc/<pid>/stat (proc(5)):
 * fields 4 and 9, counted after the command, which may hold ") " itself.
 */
function statOf(pid: number): { parent: number; forkedNotExecuted: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const parent = Number(fields[1])
    const flags = Number(fields[6])
    return Number.isInteger(parent) && Number.isInteger(flags)
      ? { parent, forkedNotExecuted: (flags & pfForkNoExec) !== 0 }
      : undefined
  } catch {
    return undefined
  }
}

function statusOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return undefined
  }
}

function rssOf(status: string | undefined): number | undefined {
  const kb = status === undefined ? undefined : /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
  return kb === undefined ? undefined : Number(kb) * 1024
}

/** What a process runs, shortened: its scripts' file names and its first word (node, or a binary). */
function commandOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    const program = args[0]?.split('/').pop() ?? ''
    const scripts = args
      .slice(1)
      .filter((arg) => /\.(m?js|ts)$/.test(arg))
      .map((arg) => arg.split('/').slice(-3).join('/'))
    return [program, ...scripts.slice(0, 2)].join(' ')
  } catch {
    return ''
  }
}
