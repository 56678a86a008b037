#!/usr/bin/env node
// Runs a TypeScript entry point without a TypeScript loader: its bundle, cached and rebuilt only when one
// of its sources changed (suites/run/bundle-cache.mjs). Why: docs/decisions/bundled-launch.md.
import module from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cachedBundle } from '../suites/run/bundle-cache.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const [entryArg, ...args] = process.argv.slice(2)
if (!entryArg) {
  console.error('Usage: node scripts/launch.mjs <entry.ts> [arguments...]')
  process.exit(2)
}
const entry = resolve(entryArg)
// Node 22.1 and later keep V8's compiled code of every module loaded from here on (vitest's and Vite's too)
// between runs; Node 20 has no such cache and goes on without it.
module.enableCompileCache?.(join(root, 'node_modules', '.cache', 'animal-store-launch', 'compiled'))
// Modules an entry imports on one path only, each a bundle of its own, so that a process that never takes
// the path never loads them: the conformance command's outer process only waits for the run (its child)
// and writes the report of a stopped one (past its deadline).
const apart = {
  'scripts/conformance.ts': ['scripts/conformance-run.ts', 'scripts/conformance-stopped-report.ts'],
}
const bundle = await cachedBundle(entry, root, {
  bundlePackages: true,
  apart: (apart[relative(root, entry)] ?? []).map((module) => join(root, module)),
})
process.argv = [process.argv[0], entry, ...args]
await import(pathToFileURL(bundle).href)
