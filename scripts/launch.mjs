#!/usr/bin/env node
// Runs a TypeScript entry point without a TypeScript loader: its bundle, cached and rebuilt only when one
// of its sources changed (suites/bundle-cache.mjs). On Node 20, tsx's loader hooks alone cost ~170 ms of
// start-up, and tsx in a process also doubles vitest's memory; packages are bundled too (see there). This
// is what lets `npm start` answer its first request within twice a bare node:http server's start.
// Plain JavaScript on purpose: it is what runs before any TypeScript can.
import { dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { cachedBundle } from '../suites/bundle-cache.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const [entryArg, ...args] = process.argv.slice(2)
if (!entryArg) {
  console.error('Usage: node scripts/launch.mjs <entry.ts> [arguments...]')
  process.exit(2)
}
const entry = resolve(entryArg)
const bundle = await cachedBundle(entry, root, { bundlePackages: true })
process.argv = [process.argv[0], entry, ...args]
await import(pathToFileURL(bundle).href)
