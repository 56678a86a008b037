import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { refuseRedirectsOptions } from './refuse-redirects.ts'
import { prismBin } from './start-prism.ts'

// The preload runs in a Node process of its own, as Prism's does: it must patch the node-fetch Prism's
// forwarder loads, and stop Prism from starting when it cannot.

/** Runs `script` in a Node started with the preload, as Prism's process is. */
function runWith(options: string[], script: string) {
  return spawnSync(process.execPath, [...options, '--input-type=commonjs', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  })
}

/** A fake installed Prism whose forwarder has `forwarder` as source and whose node-fetch has `nodeFetch`. */
function fakePrism(forwarder: string, nodeFetch: string): string {
  const root = mkdtempSync(join(tmpdir(), 'fake-prism-'))
  const files: Record<string, string> = {
    'node_modules/@stoplight/prism-cli/dist/index.js': '',
    'node_modules/@stoplight/prism-http/package.json':
      '{"name":"@stoplight/prism-http","main":"dist/index.js"}',
    'node_modules/@stoplight/prism-http/dist/index.js': '',
    'node_modules/@stoplight/prism-http/dist/forwarder/index.js': forwarder,
    'node_modules/node-fetch/package.json': '{"name":"node-fetch","main":"index.js"}',
    'node_modules/node-fetch/index.js': nodeFetch,
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return join(root, 'node_modules/@stoplight/prism-cli/dist/index.js')
}

describe('the preload that keeps Prism’s proxy from following redirects', () => {
  it('tells the node-fetch of the installed Prism that no status is a redirect', () => {
    const script = `const { createRequire } = require('node:module')
      const forwarder = createRequire(${JSON.stringify(prismBin)}).resolve('@stoplight/prism-http').replace(/index\\.js$/, 'forwarder/index.js')
      const fetch = createRequire(forwarder)('node-fetch')
      console.log([301, 302, 303, 307, 308].map((status) => fetch.isRedirect(status)).join())`
    expect(runWith([], script).stdout.trim()).toBe('true,true,true,true,true')
    const patched = runWith(refuseRedirectsOptions(prismBin), script)
    expect(patched.stdout.trim(), patched.stderr).toBe('false,false,false,false,false')
  })

  it('stops Prism starting when its node-fetch has no isRedirect to set', () => {
    const bin = fakePrism('require("node-fetch")', 'module.exports = function fetch() {}')
    const run = runWith(refuseRedirectsOptions(bin), 'console.log("Prism started")')
    expect(run.status).not.toBe(0)
    expect(run.stdout).not.toContain('Prism started')
    expect(run.stderr).toContain('has no isRedirect')
  })

  it('refuses a Prism whose forwarder sends requests some other way', () => {
    const bin = fakePrism('const fetch = globalThis.fetch', 'module.exports = function fetch() {}')
    expect(() => refuseRedirectsOptions(bin)).toThrow(/forwarder no longer sends requests with node-fetch/)
  })

  it('refuses a Prism CLI without its HTTP package beside it', () => {
    const bin = join(mkdtempSync(join(tmpdir(), 'no-prism-')), 'index.js')
    expect(() => refuseRedirectsOptions(bin)).toThrow(/@stoplight\/prism-http cannot be found/)
  })
})
