// Bundles a TypeScript entry point and the sources it imports into one ES module (packages stay
// external), cached under node_modules/.cache and rebuilt only when one of those sources changed. Used by
// scripts/launch.mjs (npm start, npm run conformance) and by the conformance runner for the suite file
// vitest loads. Plain JavaScript on purpose: it is what runs before any TypeScript can.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

// This file decides how bundles are built: a bundle built by another version of it is stale too.
const self = fileURLToPath(import.meta.url)

/**
 * The bundle is current when it exists, was built from this very entry (two checkouts may share one
 * node_modules through a link, and their entries one name), and no source it was built from changed since.
 */
function isCurrent(manifest, entry, options) {
  try {
    const {
      inputs,
      bundlePackages,
      apart = [],
      entry: builtFrom,
    } = JSON.parse(readFileSync(manifest, 'utf8'))
    if (
      builtFrom !== entry ||
      bundlePackages !== options.bundlePackages ||
      apart.join('\n') !== (options.apart ?? []).join('\n') ||
      !inputs.some(({ path }) => path === self)
    )
      return false
    return inputs.every(({ path, mtimeMs, size }) => {
      const now = statSync(path)
      return now.mtimeMs === mtimeMs && now.size === size
    })
  } catch {
    return false
  }
}

/** Calls of `cachedBundle` in progress in this process, and whether one of them started esbuild. */
const inProgress = { calls: 0, built: false }

async function build(entry, root, bundle, manifest, options) {
  const { build } = await import('esbuild')
  inProgress.built = true
  // Each source keeps its own import.meta.url, so paths it resolves beside itself (contract/openapi.yaml,
  // the suite's own folder) still point into the repository, not into the cache.
  const keepImportMetaUrl = {
    name: 'keep-import-meta-url',
    setup(plugin) {
      plugin.onLoad({ filter: /\.ts$/ }, (args) => ({
        contents: readFileSync(args.path, 'utf8').replaceAll(
          'import.meta.url',
          JSON.stringify(pathToFileURL(args.path).href),
        ),
        loader: 'ts',
      }))
    },
  }
  // A module bundled apart stays an import of its own bundle, the file beside this one.
  const apart = new Set(options.apart ?? [])
  const importApart = {
    name: 'import-apart',
    setup(plugin) {
      plugin.onResolve({ filter: /^\./ }, (args) => {
        const path = resolve(args.resolveDir, args.path)
        return apart.has(path) ? { path: `./${bundleName(path, options)}`, external: true } : undefined
      })
    },
  }
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    ...(options.bundlePackages
      ? {
          // Packages bundled too: Node resolving and loading ajv's and faker's hundreds of files one by one
          // cost ~80 ms of CPU of every start (230 -> 150 ms to the mock's first response on Node 20).
          // Those that load files or workers of their own at run time stay outside, and so do those only
          // some runs import: undici (a proxy), yaml (a YAML config file). Bundled, every start compiled
          // them anyway: undici 1.4 MB (~100 ms), yaml half of the conformance command's bundle.
          external: [
            'vitest',
            'vitest/*',
            'esbuild',
            '@stoplight/*',
            'playwright-core',
            'msw',
            'msw/*',
            'undici',
            'yaml',
          ],
          // CommonJS packages inside an ES module bundle get a real require for Node's built-ins.
          banner: {
            js: "import { createRequire as __launchRequire } from 'node:module'; const require = __launchRequire(import.meta.url);",
          },
        }
      : { packages: 'external' }),
    // The metafile names inputs relative to this directory, whatever the caller's working directory.
    absWorkingDir: root,
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins: [importApart, keepImportMetaUrl],
  })
  const inputs = [...Object.keys(result.metafile.inputs), self].map((input) => {
    const path = resolve(root, input)
    const { mtimeMs, size } = statSync(path)
    return { path, mtimeMs, size }
  })
  // Written under temporary names and renamed, so concurrent launches never read half a file.
  const temporary = `${bundle}.${process.pid}.tmp`
  writeFileSync(temporary, result.outputFiles[0].contents)
  renameSync(temporary, bundle)
  writeFileSync(
    `${manifest}.${process.pid}.tmp`,
    JSON.stringify({ entry, bundlePackages: options.bundlePackages, apart: options.apart ?? [], inputs }),
  )
  renameSync(`${manifest}.${process.pid}.tmp`, manifest)
}

function bundleName(entry, options) {
  return `${basename(entry, '.ts')}${options.bundlePackages ? '' : '.external'}.mjs`
}

/** Where `cachedBundle` keeps the bundle of `entry`, whether it is built yet or not. */
export function bundlePath(entry, root, options = { bundlePackages: false }) {
  return join(
    root,
    'node_modules',
    '.cache',
    'animal-store-launch',
    checkoutKey(root),
    bundleName(entry, options),
  )
}

/**
 * A folder per checkout: git worktrees often share one node_modules through a link, and a bundle the
 * other checkout rebuilt under the same name would make every launch here rebuild, or race it.
 */
function checkoutKey(root) {
  return createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 12)
}

/**
 * The path of a current bundle of `entry` (a .ts file of the repository at `root`), built if needed.
 * `bundlePackages` inlines npm packages too (faster start for a process of its own); without it they stay
 * imports, as a file that vitest loads beside its own copy of vitest needs. Each module in `apart` (absolute
 * paths of .ts files) gets a bundle of its own, which this bundle imports instead of holding a copy: a
 * process can load it ahead, and the bundle then finds it loaded.
 * @example const file = await cachedBundle('/repo/scripts/start-mock.ts', '/repo', { bundlePackages: true })
 */
export async function cachedBundle(entry, root, options = { bundlePackages: false }) {
  inProgress.calls++
  try {
    return await currentBundle(entry, root, options)
  } finally {
    inProgress.calls--
    // esbuild's service process, once no call needs it: left running, it lived as long as the process
    // that built (a run, its watching process), some 30 MB more of the run's memory.
    if (inProgress.calls === 0 && inProgress.built) {
      inProgress.built = false
      await (await import('esbuild')).stop()
    }
  }
}

async function currentBundle(entry, root, options) {
  const bundle = bundlePath(entry, root, options)
  const cacheDir = dirname(bundle)
  const manifest = `${bundle}.inputs.json`
  for (const module of options.apart ?? [])
    await currentBundle(module, root, { bundlePackages: options.bundlePackages })
  if (!isCurrent(manifest, resolve(entry), options)) {
    mkdirSync(cacheDir, { recursive: true })
    await build(resolve(entry), root, bundle, manifest, options)
  }
  return bundle
}
