// The command the user ran, in a form that runs again where it was printed, for the reports' replay lines.
import { realpathSync } from 'node:fs'
import { delimiter, dirname, isAbsolute, join, relative } from 'node:path'

const bin = 'animal-store-conformance'

/** How the run was started: its environment, the entry script node runs, the working directory. */
export interface Invocation {
  env: Record<string, string | undefined>
  entry: string
  cwd: string
}

/**
 * The command the user ran, for the replay lines reports print, in a form that works on the machine that
 * printed it (a CI runner included): `npm run conformance --` through npm's script (npm names it in
 * `npm_lifecycle_event`), `npx animal-store-conformance` through npx or where the working directory's
 * node_modules holds the bin, the bare bin when PATH finds this very one (a kit installed elsewhere, its
 * bin folder on PATH, as the workflows do), and else node with the entry's path: `npx` there would look
 * for the bin in the working directory, not find it, and offer to download a package of that name.
 */
export function invokedCommand(
  invocation: Invocation = { env: process.env, entry: process.argv[1] ?? '', cwd: process.cwd() },
): string {
  const { env, entry, cwd } = invocation
  if (env.npm_lifecycle_event === 'conformance') return 'npm run conformance --'
  if (env.npm_command === 'exec') return `npx ${bin}`
  const running = real(entry)
  if (running === undefined) return `npx ${bin}`
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => isAbsolute(dir))
    .find((dir) => real(join(dir, bin)) !== undefined)
  if (onPath && real(join(onPath, bin)) === running) return bin
  if (real(join(cwd, 'node_modules', '.bin', bin)) === running) return `npx ${bin}`
  const path = (file: string) => shellWord(relative(cwd, file).startsWith('..') ? file : relative(cwd, file))
  // In this repository without npm: the TypeScript entry runs through its launcher, beside it.
  return entry.endsWith('.ts')
    ? `node ${path(join(dirname(entry), 'launch.mjs'))} ${path(entry)}`
    : `node ${path(entry)}`
}

function real(path: string): string | undefined {
  try {
    return path === '' ? undefined : realpathSync(path)
  } catch {
    return undefined
  }
}

/** A path as one POSIX shell word: as it is when it is plain, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`
}
