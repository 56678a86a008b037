// Which framework a folder given to check-bundle belongs to, and the folders of it that ship.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'

/** The frameworks check-bundle tells apart; each has its own folders and its own fix text. */
export type BundleFramework = 'next' | 'vite' | 'plain'

/** What one folder given to check-bundle turned out to be. */
export interface BundleTarget {
  /** The folder as given. */
  given: string
  /** The project's root, which the files found are named from (the parent of a `.next` given). */
  root: string
  framework: BundleFramework
  /** The folders searched, as paths (the given one joined with what the framework ships). */
  folders: string[]
  /** Folders passed over because they never ship, shown so that the skip is visible. */
  skipped: string[]
}

const viteConfigs = ['ts', 'mts', 'js', 'mjs', 'cts', 'cjs'].map((ext) => `vite.config.${ext}`)
const nextConfigs = ['ts', 'mts', 'js', 'mjs', 'cjs'].map((ext) => `next.config.${ext}`)

// A folder named on the command line may be a link (a deploy folder linked to the build); inside the
// folders, links are not followed.
const isFolder = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true

/**
 * Recognises a Next project (a folder holding `.next/`, or `.next/` itself), a Vite project (a folder with
 * a vite.config, or its output folder), else a plain folder searched as given.
 * @throws when `given` is not a folder, or is a Next or Vite project with no build in it.
 * @example recogniseBuild('.') // { framework: 'next', folders: ['.next/static', '.next/server', 'public'], ... }
 */
export function recogniseBuild(given: string): BundleTarget {
  if (!isFolder(given))
    throw new Error(
      `${given} is not a folder: pass your project's root or the folder your production build writes (dist/ in Vite).`,
    )
  if (basename(resolve(given)) === '.next') return nextTarget(given, join(given, '..'), given)
  if (isFolder(join(given, '.next'))) return nextTarget(given, given, join(given, '.next'))
  const nextConfig = nextConfigs.find((name) => existsSync(join(given, name)))
  if (nextConfig) throw new Error(`${given} holds ${nextConfig} but no .next folder: run next build first.`)

  const viteConfig = viteConfigs.find((name) => existsSync(join(given, name)))
  if (viteConfig) {
    const outDir = viteOutDir(join(given, viteConfig))
    const out = join(given, outDir)
    if (!isFolder(out))
      throw new Error(`${given} is a Vite project with no ${outDir}/ folder: run vite build first.`)
    return { given, root: given, framework: 'vite', folders: [out], skipped: [] }
  }
  // An output folder given directly: its parent's vite.config names it (or it is the default dist/).
  const parent = join(given, '..')
  const parentConfig = viteConfigs.find((name) => existsSync(join(parent, name)))
  if (parentConfig && viteOutDir(join(parent, parentConfig)) === basename(resolve(given)))
    return { given, root: given, framework: 'vite', folders: [given], skipped: [] }
  return { given, root: given, framework: 'plain', folders: [given], skipped: [] }
}

/** Next serves `.next/static` to browsers, runs `.next/server`, and serves `public/` from outside `.next`. */
function nextTarget(given: string, root: string, dotNext: string): BundleTarget {
  const folders = [join(dotNext, 'static'), join(dotNext, 'server')].filter(isFolder)
  if (folders.length === 0)
    throw new Error(`${dotNext} holds no static/ or server/ folder: run next build first.`)
  const publicDir = join(root, 'public')
  if (isFolder(publicDir)) folders.push(publicDir)
  const cache = join(dotNext, 'cache')
  return { given, root, framework: 'next', folders, skipped: isFolder(cache) ? [cache] : [] }
}

/**
 * `build.outDir` when the config spells it as one string literal; anything computed falls back to Vite's
 * default, `dist` (reading it exactly would mean running the config).
 */
function viteOutDir(configPath: string): string {
  const text = readFileSync(configPath, 'utf8')
  const literal = /\boutDir\s*:\s*(['"`])([^'"`$]+)\1/.exec(text)?.[2]
  return literal?.replace(/^\.\//, '').replace(/\/+$/, '') || 'dist'
}
