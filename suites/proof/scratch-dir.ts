// Scratch folders for tests, in one folder per test process that a later process removes once it is gone.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * This process's folder of scratch folders. A full `npm test` makes thousands (report folders, pipeline
 * workspaces, fake executables), and left them all in the system's temporary folder; vitest ends its
 * workers with a signal, so a process cannot remove its own on the way out. The first scratch folder of a
 * process removes instead those of processes that are gone (a process that is alive, or whose pid was
 * taken again, keeps its own): what is left is the last run's, never a pile.
 */
let parent: string | undefined
const parentPrefix = 'animal-store-proof-'

/** A new empty folder named `<prefix>…`, for a test to use until its file ends. */
export function scratchDir(prefix: string): string {
  if (parent === undefined) {
    for (const name of readdirSync(tmpdir())) {
      if (!name.startsWith(parentPrefix)) continue
      const pid = Number(name.slice(parentPrefix.length))
      if (Number.isInteger(pid) && !alive(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true })
    }
    parent = join(tmpdir(), `${parentPrefix}${process.pid}`)
    mkdirSync(parent, { recursive: true })
  }
  return mkdtempSync(join(parent, prefix))
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
