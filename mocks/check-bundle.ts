// Finds the mock in a production build (worker script, handler chunk, default key) so it is not shipped.
import { closeSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs'
import { join, relative } from 'node:path'
import { defaultApiKey } from './core/api-keys.ts'
import { failureLogPrefix } from './core/handle-request.ts'

/** One file of a build that ships part of the mock, and why it was flagged. */
export interface BundleFinding {
  /** The path relative to the folder checked, with `/` separators. */
  file: string
  reasons: string[]
}

export interface BundleCheck {
  findings: BundleFinding[]
  /** How many files were read. */
  checked: number
}

// A build is searched, not trusted: bounded so a folder of videos or a symlink loop cannot hang the check.
const maxFiles = 100_000
const maxFileBytes = 64 * 1024 * 1024

// What only the mock ships. Searched as bytes (latin1), so a binary file costs no decoding error.
const signatures: { text: string; reason: string }[] = [
  {
    text: failureLogPrefix,
    reason: "the mock's request handlers (a chunk holding createMockApi or startBrowserMock)",
  },
  { text: defaultApiKey, reason: `the mock's default API key ("${defaultApiKey}")` },
]

/**
 * Looks through a production build for the mock: MSW's `mockServiceWorker.js`, a chunk holding the mock's
 * handlers, the mock's default API key (in code or a source map). Symbolic links are not followed.
 * @throws when `dir` is not a readable folder.
 * @example const { findings } = checkBundle('dist'); if (findings.length) process.exitCode = 1
 */
export function checkBundle(dir: string): BundleCheck {
  const stat = lstatSync(dir, { throwIfNoEntry: false })
  if (!stat?.isDirectory())
    throw new Error(`${dir} is not a folder: pass the folder your production build writes (dist/ in Vite).`)
  const findings: BundleFinding[] = []
  let checked = 0
  const pending = [dir]
  while (pending.length > 0) {
    const folder = pending.pop() as string
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) {
        pending.push(path)
        continue
      }
      if (!entry.isFile()) continue
      if (++checked > maxFiles)
        throw new Error(`${dir} holds more than ${maxFiles} files; is it really a build output folder?`)
      const reasons: string[] = []
      if (entry.name === 'mockServiceWorker.js')
        reasons.push("MSW's service worker script (keep it out of the production public folder)")
      const text = readHead(path)
      for (const { text: signature, reason } of signatures) if (text.includes(signature)) reasons.push(reason)
      if (reasons.length > 0) findings.push({ file: relative(dir, path).split('\\').join('/'), reasons })
    }
  }
  findings.sort((a, b) => a.file.localeCompare(b.file))
  return { findings, checked }
}

/** The findings as the lines `check-bundle` and the Vite plugin print, with what to do about them. */
export function describeFindings(dir: string, findings: readonly BundleFinding[]): string {
  return [
    `The build in ${dir} ships the Animal Store mock (${findings.length} file${findings.length === 1 ? '' : 's'}):`,
    ...findings.map((finding) => `  ${finding.file}: ${finding.reasons.join('; ')}`),
    'Start the mock only in development (`if (import.meta.env.DEV) await import("./browser-mock")`),',
    "keep the mock's API key out of production code, and keep mockServiceWorker.js out of the production",
    'public folder (Vite: publicDir only when mode !== \'production\'). Docs: docs/mock.md, "Keeping the mock out of production".',
  ].join('\n')
}

function readHead(path: string): string {
  const size = Math.min(lstatSync(path).size, maxFileBytes)
  const buffer = Buffer.alloc(size)
  const fd = openSync(path, 'r')
  try {
    let read = 0
    while (read < size) {
      const got = readSync(fd, buffer, read, size - read, read)
      if (got === 0) break
      read += got
    }
    return buffer.toString('latin1', 0, read)
  } finally {
    closeSync(fd)
  }
}
