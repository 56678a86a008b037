// Writes MSW's worker script from the installed msw into a public folder, as `msw init` would.
import { copyFileSync, lstatSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'

/**
 * Copies MSW's `mockServiceWorker.js` (from the installed msw, so the two always match) into `publicDir`,
 * which `msw init` would do. Returns the path written.
 * @throws when `publicDir/mockServiceWorker.js` is a symbolic link: copying through it would overwrite
 * whatever file it points to, which is not ours to change.
 */
export function writeServiceWorker(publicDir: string): string {
  const source = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
  const directory = resolve(publicDir)
  mkdirSync(directory, { recursive: true })
  const target = join(directory, 'mockServiceWorker.js')
  if (lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new Error(
      `${target} is a symbolic link; writing the worker through it would overwrite the file it points to. Remove the link (rm "${target}") and run this again, or pass another folder.`,
    )
  }
  // A regular file is replaced: re-running after an msw upgrade must update the script.
  copyFileSync(source, target)
  return target
}
