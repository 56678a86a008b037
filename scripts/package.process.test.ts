import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'

// The package as a frontend team gets it: `npm pack`, the tarball installed into a scratch project,
// then used from its entry points, its bins and its types, with nothing from this repository in reach.
const root = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
let app: string

beforeAll(async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'animal-store-package-'))
  await run(npm, ['pack', '--pack-destination', scratch], { cwd: root, timeout: 120_000 })
  const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'))
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${scratch}`)
  app = join(scratch, 'app')
  await run('mkdir', ['-p', app])
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'scratch-frontend', private: true, type: 'module' }),
  )
  // --prefer-offline: the dependencies are already in npm's cache from this repository's own install.
  await run(npm, ['install', join(scratch, tarball), '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: app,
    timeout: 240_000,
  })
}, 300_000)

describe('the npm pack tarball, installed into a scratch project', () => {
  it('works from the ./contract, ./mocks, ./mocks/node and ./conformance entry points', async () => {
    writeFileSync(
      join(app, 'use.mjs'),
      `import { contract } from 'animal-store-contract-kit/contract'
import { createMockApi } from 'animal-store-contract-kit/mocks'
import { setupMockServer } from 'animal-store-contract-kit/mocks/node'
import { runConformance } from 'animal-store-contract-kit/conformance'
const { server, api } = setupMockServer({ apiKeys: ['k'], pets: 3 })
server.listen({ onUnhandledRequest: 'error' })
const created = await fetch('http://api.test/v1/pets', { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"name":"Packed","categoryId":1}' })
const listed = await (await fetch('http://api.test/v1/pets?limit=100', { headers: { authorization: 'Bearer k' } })).json()
server.close()
console.log(JSON.stringify({ operations: contract.operations.length, created: created.status, listed: listed.length, stored: api.store.size, createMockApi: typeof createMockApi, runConformance: typeof runConformance }))
`,
    )
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: app, timeout: 60_000 })
    expect(JSON.parse(stdout)).toEqual({
      operations: 4,
      created: 201,
      listed: 4,
      stored: 4,
      createMockApi: 'function',
      runConformance: 'function',
    })
  })

  it('ships types a strict TypeScript project compiles against', async () => {
    writeFileSync(
      join(app, 'check.ts'),
      `import type { NewPet, Pet } from 'animal-store-contract-kit/contract'
import { runConformance } from 'animal-store-contract-kit/conformance'
import { createMockApi, type MockApi } from 'animal-store-contract-kit/mocks'
import { startBrowserMock } from 'animal-store-contract-kit/mocks/browser'
import { setupMockServer } from 'animal-store-contract-kit/mocks/node'
const pet: Pet = { id: 1, name: 'Rex', categoryId: 2, status: 'sold' }
const api: MockApi = createMockApi({ seed: 1, pets: 2 })
// @ts-expect-error categoryId is an integer, not a string
const wrong: NewPet = { name: 'Rex', categoryId: '2' }
export const used = [pet, api, wrong, runConformance, startBrowserMock, setupMockServer]
`,
    )
    const tsc = join(root, 'node_modules/typescript/bin/tsc')
    const types = ['--typeRoots', join(root, 'node_modules/@types'), '--types', 'node']
    const flags = [
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2023,dom',
      '--skipLibCheck',
      ...types,
    ]
    await expect(
      run(process.execPath, [tsc, ...flags, 'check.ts'], { cwd: app, timeout: 60_000 }),
    ).resolves.toBeDefined()
  })

  it('runs the animal-store-mock bin, and animal-store-conformance finds it conforming', async () => {
    const bin = (name: string) => join(app, 'node_modules/.bin', name)
    const mock = spawn(bin('animal-store-mock'), ['--port', '0', '--api-key', 'k'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let output = ''
        mock.stdout.on('data', (chunk: Buffer) => {
          output += chunk
          const url = /listening on (\S+)/.exec(output)?.[1]
          if (url) resolve(url)
        })
        mock.once('exit', (code) => reject(new Error(`animal-store-mock exited (${code}): ${output}`)))
      })
      const { stdout } = await run(
        bin('animal-store-conformance'),
        ['--base-url', baseUrl, '--api-key', 'k', '--report-dir', join(app, 'reports')],
        { cwd: app, timeout: 120_000 },
      )
      expect(stdout).toMatch(/CONFORMS: 0 findings, \d+ checks passed, 0 failed/)
    } finally {
      mock.kill('SIGTERM')
    }
  })

  it('writes MSW’s worker script with `animal-store-mock worker <dir>`', async () => {
    const { stdout } = await run(join(app, 'node_modules/.bin/animal-store-mock'), ['worker', 'public'], {
      cwd: app,
      timeout: 30_000,
    })
    expect(stdout).toContain('mockServiceWorker.js')
    expect(readdirSync(join(app, 'public'))).toEqual(['mockServiceWorker.js'])
  })
})
