#!/usr/bin/env node
// Runs a TypeScript entry point without a TypeScript loader: bundles our own sources once with esbuild
// (packages stay external), caches the bundle under node_modules/.cache, and rebuilds only when one of
// the bundled sources changed. On Node 20, tsx's loader hooks alone cost ~170 ms of start-up; this is
// what lets `npm start` answer its first request within a few times a bare node:http server's start.
// Plain JavaScript on purpose: it is what runs before any TypeScript can.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const [entryArg, ...args] = process.argv.slice(2)
if (!entryArg) {
  console.error('Usage: node scripts/launch.mjs <entry.ts> [arguments...]')
  process.exit(2)
}
const entry = resolve(entryArg)
const cacheDir = join(root, 'node_modules', '.cache', 'animal-store-launch')
const bundle = join(cacheDir, `${basename(entry, '.ts')}.mjs`)
const manifest = `${bundle}.inputs.json`

/** The bundle is current when it exists and no source it was built from changed since. */
function isCurrent() {
  try {
    const { inputs } = JSON.parse(readFileSync(manifest, 'utf8'))
    // A manifest that does not list the launcher itself was written by an older launcher.
    if (!inputs.some(({ path }) => path === fileURLToPath(import.meta.url))) return false
    return inputs.every(({ path, mtimeMs, size }) => {
      const now = statSync(path)
      return now.mtimeMs === mtimeMs && now.size === size
    })
  } catch {
    return false
  }
}

async function build() {
  const { build } = await import('esbuild')
  // Each source keeps its own import.meta.url, so paths it resolves beside itself (contract/openapi.yaml)
  // still point into the repository, not into the cache.
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
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages are bundled too: Node resolving and loading ajv's and faker's ~hundreds of files one by
    // one cost ~80 ms of CPU of every start (230 -> 150 ms to the first response, measured on Node 20).
    // CommonJS packages inside an ES module bundle get a real require for Node's built-ins.
    banner: {
      js: "import { createRequire as __launchRequire } from 'node:module'; const require = __launchRequire(import.meta.url);",
    },
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins: [keepImportMetaUrl],
  })
  // The launcher itself is an input too: a bundle built with other options is stale as well.
  const inputs = [...Object.keys(result.metafile.inputs), fileURLToPath(import.meta.url)].map((input) => {
    const path = resolve(root, input)
    const { mtimeMs, size } = statSync(path)
    return { path, mtimeMs, size }
  })
  mkdirSync(cacheDir, { recursive: true })
  // Written under temporary names and renamed, so concurrent launches never read half a file.
  const temporary = `${bundle}.${process.pid}.tmp`
  writeFileSync(temporary, result.outputFiles[0].contents)
  renameSync(temporary, bundle)
  writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify({ entry, inputs }))
  renameSync(`${manifest}.${process.pid}.tmp`, manifest)
}

if (!isCurrent()) await build()
process.argv = [process.argv[0], entry, ...args]
await import(pathToFileURL(bundle).href)
