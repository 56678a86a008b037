// Writes a tree of files under a folder, for tests that need a build's or a project's layout on disk.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * Writes `files` (paths relative to `root`, with their text) under `root`, making folders as needed, and
 * returns `root`.
 * @example writeTree('/tmp/app', { '.next/static/chunks/a.js': 'x' })
 */
export function writeTree(root: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}
