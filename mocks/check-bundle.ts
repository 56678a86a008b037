// Finds the mock in a production build (worker script, handler chunk, default key) so it is not shipped.
import { closeSync, lstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { bundleFixText } from './bundle-fix-text.ts'
import { type BundleFramework, type BundleTarget, recogniseBuild } from './bundle-targets.ts'
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

/** What check-bundle found over every folder it was given. */
export interface BundlesCheck extends BundleCheck {
  /** What each folder given turned out to be, and what was searched in it. */
  targets: BundleTarget[]
}

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
  const { findings, checked } = searchFolders(
    [{ given: dir, root: dir, framework: 'plain', folders: [dir], skipped: [] }],
    dir,
  )
  return { findings, checked }
}

/**
 * `checkBundle` over several folders, each a project root (Next, Vite) or a plain build folder: it searches
 * what the framework ships (`recogniseBuild`) and names a file once however many of the folders reach it.
 * @throws when a folder is missing, or is a Next or Vite project with no build.
 * @example const { findings, targets } = checkBundles(['.']) // a Next app: .next/static, .next/server, public/
 */
export function checkBundles(dirs: readonly string[]): BundlesCheck {
  if (dirs.length === 0) throw new Error("Pass at least one folder: your project's root or its build output.")
  const targets = dirs.map(recogniseBuild)
  return { ...searchFolders(targets, dirs.length === 1 ? targets[0]?.root : undefined), targets }
}

/** Reads every file of the targets' folders once, by its real path, naming it from `base` or as reached. */
function searchFolders(targets: readonly BundleTarget[], base: string | undefined): BundleCheck {
  const skipped = new Set(targets.flatMap((target) => target.skipped.map((path) => realpathSync(path))))
  const seen = new Set<string>()
  const findings: BundleFinding[] = []
  let checked = 0
  for (const target of targets) {
    for (const top of target.folders) {
      const pending: { real: string; shown: string }[] = [{ real: realpathSync(top), shown: top }]
      while (pending.length > 0) {
        const { real, shown } = pending.pop() as { real: string; shown: string }
        if (seen.has(real) || skipped.has(real) || isNextCache(real)) continue
        seen.add(real)
        for (const entry of readdirSync(real, { withFileTypes: true })) {
          // Not following links keeps the joined path the real one, so a file reached twice is known.
          const path = { real: join(real, entry.name), shown: join(shown, entry.name) }
          if (entry.isDirectory()) {
            pending.push(path)
            continue
          }
          if (!entry.isFile() || seen.has(path.real)) continue
          seen.add(path.real)
          if (++checked > maxFiles)
            throw new Error(`${top} holds more than ${maxFiles} files; is it really a build output folder?`)
          const reasons: string[] = []
          if (entry.name === 'mockServiceWorker.js')
            reasons.push("MSW's service worker script (keep it out of the production public folder)")
          const text = readHead(path.real)
          for (const { text: signature, reason } of signatures)
            if (text.includes(signature)) reasons.push(reason)
          const file = base === undefined ? path.shown : relative(base, path.shown)
          if (reasons.length > 0) findings.push({ file: file.split('\\').join('/'), reasons })
        }
      }
    }
  }
  findings.sort((a, b) => a.file.localeCompare(b.file))
  return { findings, checked }
}

// Next's build cache never ships, wherever it is met (a plain folder holding a Next app included).
const isNextCache = (path: string) => basename(path) === 'cache' && basename(dirname(path)) === '.next'

/** The lines saying what each folder given was recognised as and what was searched in it. */
export function describeTargets(targets: readonly BundleTarget[]): string {
  return targets
    .map(({ given, root, framework, folders, skipped }) => {
      const what = { next: 'a Next.js project', vite: 'a Vite project', plain: 'a plain folder' }[framework]
      const searched = folders.map((folder) => relative(root, folder).split('\\').join('/') || '.')
      const skips = skipped.map((folder) => relative(root, folder).split('\\').join('/'))
      return `${given}: ${what}; searched ${searched.join(', ')}${skips.length ? ` (skipped ${skips.join(', ')}, which never ships)` : ''}`
    })
    .join('\n')
}

/** The findings as the lines `check-bundle` and the build guards print, with what to do in each framework. */
export function describeFindings(
  dir: string,
  findings: readonly BundleFinding[],
  frameworks: readonly BundleFramework[] = ['vite'],
): string {
  return [
    `The build in ${dir} ships the Animal Store mock (${findings.length} file${findings.length === 1 ? '' : 's'}):`,
    ...findings.map((finding) => `  ${finding.file}: ${finding.reasons.join('; ')}`),
    ...[...new Set(frameworks)].map(bundleFixText),
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
