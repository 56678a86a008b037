import { execFile } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDelayingProxy } from '../suites/proof/delaying-proxy.ts'
import { visitBrowserMockPage } from './proof/browser-mock-page.ts'
import {
  createScratchProject,
  installedMegabytes,
  nodeFromRegistry,
  npmInstall,
  packTarball,
  removeScratchDirectories,
  runNode,
  startInstalledMock,
} from './proof/scratch-project.ts'

// The package as a frontend team gets it: `npm pack`, the tarball installed into a scratch project with
// the documented commands, then used from its entry points, its bins and its types, with nothing from this
// repository in reach. Then the same on Node 20.19 (the floor), 22 and 24 from the npm registry.
const root = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const run = promisify(execFile)
/** The mock path's budget on disk: the tarball plus msw, everything they pull. */
const mockPathBudgetMb = 40
const mockBin = 'node_modules/animal-store-contract-kit/dist/scripts/start-mock.js'
const conformanceBin = 'node_modules/animal-store-contract-kit/dist/scripts/conformance.js'
const contractBin = 'node_modules/animal-store-contract-kit/dist/scripts/contract.js'
const readmeSnippet = join(root, 'mocks/snippets/pets-in-vitest.test.ts')
/** The README's vitest files, run (and type-checked) in each runtime's project: 2 + 4 + 3 tests. */
const snippets = ['pets-in-vitest.test.ts', 'unmocked-requests.test.ts', 'typed-client.test.ts']
// Users compile with TypeScript 5 or 7, the native port: the package's own types and the recipe's are
// checked with 5.9, the README's files against each msw's types with 7 (seconds faster each).
const tsc = join(root, 'node_modules/typescript/bin/tsc')
const nativeTsc = join(root, 'node_modules/typescript-native/bin/tsc')
const strictFlags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext']
strictFlags.push('--target', 'es2022', '--lib', 'es2023,dom', '--skipLibCheck')
strictFlags.push('--typeRoots', join(root, 'node_modules/@types'), '--types', 'node')

// Node 20.19 is the floor `engines` declares (msw 3 needs 22.12+, so it gets msw 2 there); 22 and 24 are
// what most users run, with msw 3. The browser mock runs in Chromium once per msw major: msw 2 from the
// mock-path project below, msw 3 from Node 22's (the bundle it runs does not depend on Node). Runtimes with
// the same msw share one scratch project: what npm installs does not depend on the Node that runs it (no
// package here builds anything at install), and each install costs some 9 s of CPU.
const runtimes = [
  { node: '20.19.0', msw: `msw@${manifest.devDependencies.msw}`, major: 2, browser: false, typecheck: true },
  { node: '22', msw: 'msw@^3', major: 3, browser: true, typecheck: true },
  { node: '24', msw: 'msw@^3', major: 3, browser: false, typecheck: false }, // same msw types as 22
]

/** The README's React recipe copied into a new Vite app beside the tarball, prepared in parallel too. */
let viteApp: Promise<string>
/** A scratch project per msw the runtimes use, prepared in parallel with everything else once the tarball exists. */
const mswApps = new Map<string, Promise<string>>()
/** Each Node runtime's binary and the scratch project of its msw. */
const runtimeApps = new Map<string, Promise<{ node: string; app: string }>>()
let tarball: string
beforeAll(async () => {
  tarball = await packTarball()
  for (const { node: version, msw } of runtimes) {
    let installed = mswApps.get(msw)
    if (!installed) {
      const app = createScratchProject(`msw-${mswApps.size}`)
      const vitest = `vitest@${manifest.devDependencies.vitest}`
      const openapiFetch = `openapi-fetch@${manifest.devDependencies['openapi-fetch']}`
      installed = npmInstall(app, [tarball, msw, vitest, openapiFetch]).then(() => app)
      mswApps.set(msw, installed)
    }
    const prepared = Promise.all([nodeFromRegistry(version), installed]).then(([node, app]) => ({
      node,
      app,
    }))
    prepared.catch(() => {}) // awaited (and reported) by the runtime's own beforeAll
    runtimeApps.set(version, prepared)
  }
  viteApp = createViteApp(tarball)
  viteApp.catch(() => {}) // awaited (and reported) by its describe's beforeAll
}, 240_000)
afterAll(async () => {
  await Promise.allSettled([...runtimeApps.values(), viteApp]) // no install left writing into a folder being removed
  removeScratchDirectories()
}, 300_000)

describe('the tarball installed with msw alone (the mock path)', () => {
  let app: string
  beforeAll(async () => {
    app = createScratchProject('mock-path')
    await npmInstall(app, [tarball, `msw@${manifest.devDependencies.msw}`])
  }, 300_000)

  it(`takes at most ${mockPathBudgetMb} MB on disk and pulls no TypeScript loader, bundler, Prism or vitest`, async () => {
    const megabytes = await installedMegabytes(app)
    console.log(`Mock path install size (tarball + msw, du of node_modules): ${megabytes} MB`)
    mkdirSync(join(root, 'reports'), { recursive: true })
    writeFileSync(join(root, 'reports/package-size.json'), JSON.stringify({ mockPathMegabytes: megabytes }))
    expect(megabytes).toBeLessThanOrEqual(mockPathBudgetMb)
    const installed = readdirSync(join(app, 'node_modules'))
    for (const heavy of ['tsx', 'esbuild', 'vitest', 'vite', 'typescript', 'yaml', 'next'])
      expect(installed).not.toContain(heavy)
    expect(existsSync(join(app, 'node_modules/@stoplight'))).toBe(false)
  })

  it('works from the ./contract, ./mocks and ./mocks/node entry points', async () => {
    writeFileSync(
      join(app, 'use.mjs'),
      `import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { contract } from 'animal-store-contract-kit/contract'
import { createMockApi } from 'animal-store-contract-kit/mocks'
import { setupMockServer } from 'animal-store-contract-kit/mocks/node'
const { server, api } = setupMockServer({ apiKeys: ['k'], pets: 3 })
server.listen({ onUnhandledRequest: 'error' })
const created = await fetch('http://api.test/v1/pets', { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{"name":"Packed","categoryId":1}' })
const listed = await (await fetch('http://api.test/v1/pets?limit=100', { headers: { authorization: 'Bearer k' } })).json()
server.close()
const yaml = fileURLToPath(import.meta.resolve('animal-store-contract-kit/openapi.yaml'))
console.log(JSON.stringify({ operations: contract.operations.length, created: created.status, listed: listed.length, stored: api.store.size, createMockApi: typeof createMockApi, yaml: readFileSync(yaml, 'utf8').startsWith('openapi: 3.1') }))
`,
    )
    const { stdout } = await runNode(process.execPath, app, ['use.mjs'], 60_000)
    expect(JSON.parse(stdout)).toEqual({
      operations: 4,
      created: 201,
      listed: 4,
      stored: 4,
      createMockApi: 'function',
      yaml: true,
    })
  })

  it('loads ./chromium without its optional peer, saying what to install; ./playwright imports @msw/playwright only lazily', async () => {
    writeFileSync(
      join(app, 'chromium.mjs'),
      `import { findChromium } from 'animal-store-contract-kit/chromium'
const chosen = await findChromium({ CHROMIUM_PATH: process.execPath })
const missing = await findChromium({}).then(() => 'found', (error) => error.message)
console.log(JSON.stringify({ chosen: chosen.executablePath === process.execPath, missing }))
`,
    )
    const { stdout } = await runNode(process.execPath, app, ['chromium.mjs'], 60_000)
    const result = JSON.parse(stdout)
    expect(result.chosen).toBe(true)
    // Off Linux x86-64 the finder says to set CHROMIUM_PATH before it ever looks for the package.
    if (process.platform === 'linux' && process.arch === 'x64')
      expect(result.missing).toContain('findChromium needs @sparticuz/chromium (npm install --save-dev')
    // Resolving ./playwright needs @playwright/test, which this project lacks; what httpMockTest needs is
    // read from the shipped files instead: no static import of @msw/playwright anywhere on its path.
    const dist = join(app, 'node_modules/animal-store-contract-kit/dist/mocks')
    expect(readFileSync(join(dist, 'playwright.js'), 'utf8')).not.toMatch(
      /^import[^;]*['"]@msw\/playwright['"]/m,
    )
    expect(readFileSync(join(dist, 'playwright-http.js'), 'utf8')).not.toMatch(
      /['"](msw|@msw\/playwright)['"]/,
    )
  })

  it('ships types a strict TypeScript project compiles against', async () => {
    writeFileSync(
      join(app, 'check.ts'),
      `import type { components, NewPet, Pet, paths } from 'animal-store-contract-kit/contract'
import type { ConformanceOptions } from 'animal-store-contract-kit/conformance'
import { createMockApi, type MockApi } from 'animal-store-contract-kit/mocks'
import { startBrowserMock } from 'animal-store-contract-kit/mocks/browser'
import { setupMockServer } from 'animal-store-contract-kit/mocks/node'
import { mockGuard } from 'animal-store-contract-kit/mocks/vite'
const pet: Pet = { id: 1, name: 'Rex', categoryId: 2, status: 'sold' }
const api: MockApi = createMockApi({ seed: 1, pets: 2 })
// @ts-expect-error categoryId is an integer, not a string
const wrong: NewPet = { name: 'Rex', categoryId: '2' }
const options: ConformanceOptions = { baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'k' }
type ListQuery = NonNullable<paths['/pets']['get']['parameters']['query']>
const query: ListQuery = { status: 'pending', limit: 5 }
// @ts-expect-error the contract's statuses are available, pending and sold
const status: components['schemas']['PetStatus'] = 'lost'
export const used = [pet, api, wrong, options, query, status, startBrowserMock, setupMockServer, mockGuard()]
`,
    )
    await expect(
      run(process.execPath, [tsc, ...strictFlags, 'check.ts'], { cwd: app, timeout: 60_000 }),
    ).resolves.toBeDefined()
  })

  it('serves with the animal-store-mock bin; animal-store-conformance says to install vitest, exit 2; runConformance in the caller’s thread needs no vitest', async () => {
    const mock = await startInstalledMock(process.execPath, app, ['--api-key', 'k'])
    try {
      const response = await fetch(`${mock.baseUrl}/pets?limit=3`, { headers: { authorization: 'Bearer k' } })
      expect(response.status).toBe(200)
      expect(await response.json()).toHaveLength(3)
      const refused = await runNode(process.execPath, app, [
        conformanceBin,
        '--base-url',
        mock.baseUrl,
        '--api-key',
        'k',
      ]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      )
      expect(refused?.code).toBe(2)
      expect(refused?.stderr).toContain('npm install --save-dev vitest@^4.1')
      // The whole run, judged in this thread: the installed mock conforms, exit 0.
      const inThread = `import { runConformance } from 'animal-store-contract-kit/conformance'
const { exitCode } = await runConformance({ baseUrl: ${JSON.stringify(mock.baseUrl)}, apiKey: 'k', inThisThread: true, reportDir: 'in-thread', print: () => {} })
console.log('exit', exitCode)`
      const judged = await runNode(process.execPath, app, ['--input-type=module', '-e', inThread])
      expect(judged.stdout.trim()).toBe('exit 0')
    } finally {
      await mock.stop()
    }
  })

  it('names the installed commands in --help, which ends with a newline', async () => {
    for (const [bin, name] of [
      [mockBin, 'animal-store-mock'],
      [conformanceBin, 'animal-store-conformance'],
      [contractBin, 'animal-store-contract'],
    ] as const) {
      const { stdout } = await runNode(process.execPath, app, [bin, '--help'], 30_000)
      expect(stdout.startsWith(`Usage: ${name} `)).toBe(true)
      expect(stdout.endsWith('\n')).toBe(true)
    }
  })

  it('runs the browser mock in Chromium with msw 2: unmocked requests pass quietly; a missing worker script names the command', async () => {
    await runNode(process.execPath, app, [mockBin, 'worker', 'browser-public'], 30_000)
    await expectBrowserMockBehaviour(app, join(app, 'browser-public'))
  })

  it('writes MSW’s worker script with `animal-store-mock worker <dir>`, and refuses a symlinked one', async () => {
    const { stdout } = await runNode(process.execPath, app, [mockBin, 'worker', 'public'], 30_000)
    expect(stdout).toContain('mockServiceWorker.js')
    expect(readdirSync(join(app, 'public'))).toEqual(['mockServiceWorker.js'])

    mkdirSync(join(app, 'linked'))
    writeFileSync(join(app, 'precious.js'), 'keep me')
    symlinkSync(join(app, 'precious.js'), join(app, 'linked/mockServiceWorker.js'))
    const refused = await runNode(process.execPath, app, [mockBin, 'worker', 'linked'], 30_000).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    expect(refused?.code).toBe(1)
    expect(refused?.stderr).toMatch(/is a symbolic link; writing the worker through it would overwrite/)
    expect(readFileSync(join(app, 'precious.js'), 'utf8')).toBe('keep me')
  })

  it('checks a build with `animal-store-mock check-bundle <dir>`: exit 1 naming the worker, 0 when clean; ./mocks/vite loads', async () => {
    mkdirSync(join(app, 'clean-dist'))
    writeFileSync(join(app, 'clean-dist/index.html'), '<!doctype html><title>App</title>')
    const clean = await runNode(process.execPath, app, [mockBin, 'check-bundle', 'clean-dist'], 30_000)
    expect(clean.stdout).toContain('no part of the Animal Store mock in 1 files')
    await runNode(process.execPath, app, [mockBin, 'worker', 'dirty-dist'], 30_000)
    const dirty = await runNode(process.execPath, app, [mockBin, 'check-bundle', 'dirty-dist'], 30_000).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    expect(dirty?.code).toBe(1)
    expect(dirty?.stderr).toContain("mockServiceWorker.js: MSW's service worker script")
    writeFileSync(
      join(app, 'guard.mjs'),
      "const { mockGuard } = await import('animal-store-contract-kit/mocks/vite'); console.log(mockGuard().name)",
    )
    expect((await runNode(process.execPath, app, ['guard.mjs'], 30_000)).stdout.trim()).toBe(
      'animal-store-mock-guard',
    )
    // ./playwright is there for those who install its optional peers (@playwright/test, @msw/playwright).
    const installed = join(app, 'node_modules/animal-store-contract-kit')
    const exported = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).exports['./playwright']
    expect(exported).toEqual({ types: './dist/mocks/playwright.d.ts', default: './dist/mocks/playwright.js' })
    expect(existsSync(join(installed, exported.default))).toBe(true)
    expect(existsSync(join(installed, exported.types))).toBe(true)
  })

  describe('with vitest added (the conformance path)', () => {
    beforeAll(async () => {
      await npmInstall(app, [`vitest@${manifest.devDependencies.vitest}`])
    }, 300_000)

    it('runs animal-store-conformance from the installed package and finds the installed mock conforming', async () => {
      const mock = await startInstalledMock(process.execPath, app, ['--api-key', 'k'])
      try {
        const args = [conformanceBin, '--base-url', mock.baseUrl, '--api-key', 'k', '--report-dir', 'reports']
        const { stdout } = await runNode(process.execPath, app, args)
        expect(stdout).toMatch(/CONFORMS: 0 findings, \d+ checks passed, /)
        // The run writes its reports where it is told, and nothing into the installed package (vitest's
        // results cache would go into a .vite folder there).
        const installed = join(app, 'node_modules/animal-store-contract-kit')
        expect(
          readdirSync(installed, { recursive: true }).filter((path) => String(path).includes('.vite')),
        ).toEqual([])
        // --via-prism needs Prism, an optional peer: without it, a message saying what to install.
        const refused = await runNode(process.execPath, app, [...args, '--via-prism']).then(
          () => undefined,
          (error: { code: number; stderr: string }) => error,
        )
        expect(refused?.code).toBe(2)
        expect(refused?.stderr).toContain('npm install --save-dev @stoplight/prism-cli@5.14.2')
      } finally {
        await mock.stop()
      }
    })

    it('starts vitest’s thread ahead as vitest starts it with the Vite a fresh install brings, so the checks begin there', async () => {
      // The repository proves the guess under its own Vite (prestarted-worker.test.ts); a fresh install of
      // vitest 4.1 resolves the newest Vite its range allows, which this proves too.
      const dir = join(app, 'thread-probe')
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'x.test.mjs'), "import { it } from 'vitest'\nit('runs', () => {})\n")
      writeFileSync(
        join(app, 'thread-probe.mjs'),
        `import { startVitest } from 'vitest/node'
import { prestartedPool, prestartVitestWorker } from './node_modules/animal-store-contract-kit/dist/suites/run/prestarted-worker.js'
const prestarted = prestartVitestWorker()
let taken = false
const pool = prestartedPool({ ...prestarted, take: (...args) => { const thread = prestarted.take(...args); taken = thread !== undefined; return thread } })
const vitest = await startVitest('test', [], { root: ${JSON.stringify(dir)}, config: false, watch: false, include: ['x.test.mjs'], reporters: [], pool })
await vitest.close()
console.log(JSON.stringify({ beginsEarly: prestarted.beginsEarly, taken }))
process.exit(0)
`,
      )
      const { stdout } = await runNode(process.execPath, app, ['thread-probe.mjs'])
      expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({ beginsEarly: true, taken: true })
    })

    it('sends each request once when the kit lives outside node_modules (npm link, a folder install)', async () => {
      // There vitest loads the suite file's own copy of the engine beside the one its thread loaded ahead,
      // where the checks began: both must find the same run, or every check goes out twice.
      const linked = join(app, 'linked-kit')
      cpSync(join(app, 'node_modules/animal-store-contract-kit'), linked, { recursive: true })
      const mock = await startInstalledMock(process.execPath, app, ['--api-key', 'k'])
      const counting = await startDelayingProxy({ upstream: new URL(mock.baseUrl).origin, delayMs: 0 })
      try {
        const bin = join(linked, 'dist/scripts/conformance.js')
        const baseUrl = `${counting.origin}${new URL(mock.baseUrl).pathname}`
        const args = [bin, '--base-url', baseUrl, '--api-key', 'k', '--report-dir', 'linked-reports']
        const { stdout } = await runNode(process.execPath, app, args)
        expect(stdout).toMatch(/CONFORMS: 0 findings, \d+ checks passed, /)
        const report = JSON.parse(readFileSync(join(app, 'linked-reports/conformance.json'), 'utf8'))
        // The run's own count, and the pre-flight's one request before it.
        expect(counting.counts.forwarded).toBe(report.traffic.requests + 1)
      } finally {
        await counting.close()
        await mock.stop()
      }
    })

    it('reads a JSON config file as installed, and asks for the optional peer yaml before reading a YAML one', async () => {
      const dir = join(app, 'config-check')
      mkdirSync(dir, { recursive: true })
      writeFileSync(join(dir, 'animal-store.config.json'), JSON.stringify({ timeout: 'soon' }))
      const bin = join(app, 'node_modules/.bin/animal-store-conformance')
      const refused = (args: string[]) =>
        runNode(process.execPath, dir, [bin, ...args]).then(
          () => undefined,
          (error: { code: number; stderr: string }) => error,
        )
      const json = await refused([])
      expect(json?.code).toBe(2)
      expect(json?.stderr).toContain('animal-store.config.json: "timeout" must be a number of seconds')
      writeFileSync(join(dir, 'staging.yaml'), 'timeout: 600\n')
      const yaml = await refused(['--config', 'staging.yaml'])
      expect(yaml?.code).toBe(2)
      expect(yaml?.stderr).toContain(
        'needs the yaml package: install it beside this kit (npm install --save-dev yaml@^2.9)',
      )
    })

    it('runs the README’s vitest snippet against the installed package', async () => {
      copyFileSync(readmeSnippet, join(app, 'pets.test.ts'))
      const vitest = join(app, 'node_modules/vitest/vitest.mjs')
      const { stdout } = await runNode(process.execPath, app, [vitest, 'run', '--root', app, 'pets.test.ts'])
      expect(stdout).toMatch(/Tests\s+2 passed/)
    })
  })
})

describe('the README’s React recipe copied into a new Vite app', () => {
  // Built by that app's own vite, type-checked against the installed package's types.
  let app: string
  beforeAll(async () => {
    app = await viteApp
  }, 300_000)

  /** Strings only the mock's code carries: msw's log prefix, the worker script's name, faker's pet names. */
  const mockMarkers = ['[MSW]', 'mockServiceWorker.js', 'petName']
  async function build(outDir: string, env: Record<string, string>): Promise<string> {
    const { NODE_ENV: _vitestSetsTest, ...inherited } = process.env
    const vite = join(app, 'node_modules/vite/bin/vite.js')
    await run(process.execPath, [vite, 'build', '--outDir', outDir, '--logLevel', 'error'], {
      cwd: app,
      timeout: 120_000,
      env: { ...inherited, ...env },
    })
    const assets = join(app, outDir, 'assets')
    return readdirSync(assets)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(assets, file), 'utf8'))
      .join('\n')
  }

  it('type-checks against the installed package (the client’s types come from its paths)', async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...{ target: 'es2022', lib: ['es2023', 'dom'], module: 'esnext', moduleResolution: 'bundler' },
          ...{
            jsx: 'react-jsx',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            allowImportingTsExtensions: true,
          },
          types: [],
        },
        include: ['src'],
      }),
    )
    await expect(
      run(process.execPath, [tsc, '-p', app], { cwd: app, timeout: 60_000 }),
    ).resolves.toBeDefined()
  })

  it('ships none of the mock (msw, faker) in its production bundle, even with the flag on', async () => {
    const bundle = await build('dist', { VITE_MOCK_API: 'true' })
    expect(bundle).toContain('Loading pets') // the app itself is there
    for (const marker of mockMarkers) expect(bundle).not.toContain(marker)
  })

  it('does carry the mock in a development build with the flag on (so the check above can fail)', async () => {
    const bundle = await build('dist-development', { VITE_MOCK_API: 'true', NODE_ENV: 'development' })
    for (const marker of mockMarkers) expect(bundle).toContain(marker)
  })
})

describe.each(runtimes)(
  'on Node $node from the npm registry, with $msw',
  ({ node: version, major, browser, typecheck }) => {
    let node: string
    let app: string
    beforeAll(async () => {
      ;({ node, app } = await (runtimeApps.get(version) as Promise<{ node: string; app: string }>))
    }, 300_000)

    it(`runs that Node and msw ${major}`, async () => {
      const { stdout } = await runNode(node, app, ['--version'], 10_000)
      expect(stdout.startsWith(`v${version}`)).toBe(true)
      const installed = JSON.parse(readFileSync(join(app, 'node_modules/msw/package.json'), 'utf8'))
      expect(installed.version.startsWith(`${major}.`)).toBe(true)
    })

    it('serves the installed mock bin, and the installed conformance bin finds it conforming', async () => {
      const mock = await startInstalledMock(node, app, ['--api-key', 'k'])
      try {
        const args = [conformanceBin, '--base-url', mock.baseUrl, '--api-key', 'k', '--report-dir', 'reports']
        const { stdout } = await runNode(node, app, args)
        expect(stdout).toMatch(/CONFORMS: 0 findings, \d+ checks passed, /)
      } finally {
        await mock.stop()
      }
    })

    it(`runs the README’s vitest files with msw ${major}: the mock, unmocked requests failing, the typed client`, async () => {
      for (const snippet of snippets) copyFileSync(join(root, 'mocks/snippets', snippet), join(app, snippet))
      const vitest = join(app, 'node_modules/vitest/vitest.mjs')
      const { stdout } = await runNode(node, app, [vitest, 'run', '--root', app, ...snippets])
      expect(stdout).toMatch(/Tests\s+9 passed/)
    })

    if (typecheck)
      it(`type-checks those files against msw ${major}’s types (a wrong field name must still fail tsc)`, async () => {
        for (const snippet of snippets)
          copyFileSync(join(root, 'mocks/snippets', snippet), join(app, snippet))
        await expect(
          run(process.execPath, [nativeTsc, ...strictFlags, ...snippets], { cwd: app, timeout: 60_000 }),
        ).resolves.toBeDefined()
      })

    if (browser)
      it(`runs the browser mock in Chromium with msw ${major}: unmocked requests pass quietly; a missing worker script names the command`, async () => {
        await runNode(node, app, [mockBin, 'worker', 'browser-public'], 30_000)
        await expectBrowserMockBehaviour(app, join(app, 'browser-public'))
      })
  },
)

/** The installed browser mock, in Chromium: answers /v1, lets the rest through unlogged, explains a missing worker. */
async function expectBrowserMockBehaviour(app: string, publicDir: string) {
  const started = await visitBrowserMockPage(app, publicDir)
  expect(started.outcome).toEqual({ mocked: { status: 200, count: 3 }, unmocked: 'from the server' })
  expect(started.served).toContain('/not-mocked.txt') // passed through by the worker, to the server
  expect(started.served).not.toContain('/v1/pets')
  // quiet: true, and unhandled requests bypassed: no "[MSW] Mocking enabled", no "intercepted a request
  // without a matching request handler" for the page's own GET / or for /not-mocked.txt.
  expect(started.console).toEqual([])
  const missing = await visitBrowserMockPage(app, publicDir, '?worker=/missing/mockServiceWorker.js')
  expect(missing.outcome.error).toMatch(
    /not served at \/missing\/mockServiceWorker\.js \(the server answered 200 text\/html\)/,
  )
  expect(missing.outcome.error).toContain('npx animal-store-mock worker public')
}

/** mocks/recipes/react/ as a team would copy it: src/ and index.html, with no aliases and no config of ours. */
async function createViteApp(tarball: string): Promise<string> {
  const devDependency = (name: string) => `${name}@${manifest.devDependencies[name]}`
  const app = createScratchProject('vite-app')
  const recipe = ['react', 'react-dom', '@types/react', '@types/react-dom', '@tanstack/react-query']
  await npmInstall(app, [tarball, ...['msw', 'vite', 'openapi-fetch', ...recipe].map(devDependency)])
  cpSync(join(root, 'mocks/recipes/react/index.html'), join(app, 'index.html'))
  cpSync(join(root, 'mocks/recipes/react/src'), join(app, 'src'), {
    recursive: true,
    filter: (path) => !/\.test\.tsx?$/.test(path),
  })
  return app
}
