import { copyFileSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'

/**
 * Copies MSW's `mockServiceWorker.js` (from the installed msw, so the two always match) into `publicDir`,
 * which `msw init` would do. Returns the path written.
 */
export function writeServiceWorker(publicDir: string): string {
  const source = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js')
  const directory = resolve(publicDir)
  mkdirSync(directory, { recursive: true })
  const target = join(directory, 'mockServiceWorker.js')
  copyFileSync(source, target)
  return target
}
