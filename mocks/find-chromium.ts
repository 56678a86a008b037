// Which Chromium a browser test launches (`animal-store-contract-kit/chromium`): CHROMIUM_PATH, else @sparticuz/chromium's.
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface ChromiumToLaunch {
  executablePath: string
  args: string[]
  /** Where the browser came from, for messages: `CHROMIUM_PATH` or the npm package. */
  source: string
}

// Flags every headless test run wants, whichever Chromium it is: no sandbox (CI runs as root), no
// network of the browser's own, a quiet first run.
const quietFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
]

/**
 * The Chromium the browser tests drive. `CHROMIUM_PATH` first (macOS, or any browser you choose); else the
 * one inside the `@sparticuz/chromium` devDependency, so every Linux x86-64 machine tests with the same
 * browser and nothing needs installing beyond `npm ci`. It unpacks itself into the temporary directory
 * the first time (~7 s), then starts in under a second.
 * @note The package ships a Linux x86-64 binary only; elsewhere set `CHROMIUM_PATH`. Its version 153 declares
 * Node ^22.17 or >=24: on Node 20.19 npm warns EBADENGINE at install, and this repository's tests run it
 * there all the same (docs/mock.md, "Which Chromium").
 */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumToLaunch> {
  const chosen = env.CHROMIUM_PATH
  if (chosen) {
    if (!existsSync(chosen))
      throw new Error(
        `CHROMIUM_PATH is set to ${chosen}, which does not exist. Point it at a Chromium or Chrome executable, or unset it to use the one from @sparticuz/chromium.`,
      )
    return {
      executablePath: chosen,
      args: ['--headless', ...quietFlags],
      source: `CHROMIUM_PATH (${chosen})`,
    }
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `@sparticuz/chromium ships Chromium for Linux x86-64 only, and this is ${process.platform}-${process.arch}. Set CHROMIUM_PATH to a Chromium or Chrome executable, e.g. CHROMIUM_PATH="/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" npm test.`,
    )
  }
  const packaged = await import('@sparticuz/chromium').then(
    (module) => module.default,
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error
      throw new Error(
        'findChromium needs @sparticuz/chromium (npm install --save-dev @sparticuz/chromium@153.0.0; it declares Node ^22.17 or >=24, and npm only warns on Node 20.19) or CHROMIUM_PATH set to a Chromium or Chrome executable.',
      )
    },
  )
  const executablePath = await oneAtATime(() => packaged.executablePath())
  return {
    executablePath,
    // --single-process is for AWS Lambda; here it makes closing one browser context end the whole browser.
    args: [...packaged.args.filter((flag) => flag !== '--single-process'), ...quietFlags],
    source: `@sparticuz/chromium (${executablePath})`,
  }
}

/**
 * Runs `unpack` while no other process does: the package takes `<tmp>/chromium` as unpacked as soon as it
 * exists, so a second test process (two browser test files at once, Playwright's workers) could launch a
 * binary another was still writing (`spawn ETXTBSY`) on a machine that had never unpacked it. A folder
 * made with mkdir is the lock; after a minute's wait it goes on, the lock taken as left by a process that died.
 */
async function oneAtATime<T>(unpack: () => Promise<T>): Promise<T> {
  const lock = join(tmpdir(), 'animal-store-chromium.lock')
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (waited >= 60_000) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  try {
    return await unpack()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
