import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { stopProcess } from '../../mocks/stop-process.ts'

// Test helpers for the package as a frontend team gets it: the npm pack tarball installed into a scratch
// project, outside this repository, run with any Node. Every step has a time limit, so nothing can hang.
const root = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
// npm's own chatter (funding, audit, a user config it does not know) is not what these tests look at.
const quietNpm = ['--no-audit', '--no-fund', '--loglevel=error']

/** Runs `npm pack` (which builds dist/) and returns the tarball's path in a fresh directory. */
export async function packTarball(): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), 'animal-store-package-'))
  scratchDirectories.push(scratch)
  await run(npm, ['pack', '--pack-destination', scratch, '--loglevel=error'], { cwd: root, timeout: 180_000 })
  const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'))
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${scratch}`)
  return join(scratch, tarball)
}

const scratchDirectories: string[] = []

/** Removes every directory the helpers above created (each install is tens of megabytes). */
export function removeScratchDirectories(): void {
  for (const directory of scratchDirectories.splice(0)) rmSync(directory, { recursive: true, force: true })
}

/** A new, empty ES-module project in the temporary directory. */
export function createScratchProject(name: string): string {
  const app = mkdtempSync(join(tmpdir(), `animal-store-${name}-`))
  scratchDirectories.push(app)
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: `scratch-${name}`, private: true, type: 'module' }),
  )
  return app
}

/** `npm install --save-dev <specs>` in `app`; packages already in npm's cache are not fetched again. */
export async function npmInstall(app: string, specs: string[]): Promise<void> {
  await run(npm, ['install', '--save-dev', '--prefer-offline', ...quietNpm, ...specs], {
    cwd: app,
    timeout: 300_000,
  })
}

/** What `node_modules` takes on disk, in megabytes (`du`, as a person would measure it). */
export async function installedMegabytes(app: string): Promise<number> {
  const { stdout } = await run('du', ['-sk', join(app, 'node_modules')], { timeout: 60_000 })
  return Math.round((Number.parseInt(stdout, 10) / 1024) * 10) / 10
}

/**
 * A Node.js binary from the npm registry's `node` package (`version`: `22`, `20.19.0`...), cached under
 * node_modules/.cache so later runs start at once. Returns the path of its `node` executable.
 */
export async function nodeFromRegistry(version: string): Promise<string> {
  const prefix = join(root, 'node_modules', '.cache', 'animal-store-node', `node-${version}`)
  const node = join(prefix, 'node_modules', '.bin', 'node')
  if (!existsSync(node)) {
    mkdirSync(prefix, { recursive: true })
    await run(npm, ['install', '--no-save', '--prefix', prefix, ...quietNpm, `node@${version}`], {
      timeout: 300_000,
    })
  }
  return node
}

/** Runs `node script args` in `app` and returns its output; rejects on a non-zero exit or after `timeout`. */
export async function runNode(node: string, app: string, args: string[], timeout = 120_000) {
  return run(node, args, { cwd: app, timeout, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } })
}

export interface InstalledMock {
  baseUrl: string
  child: ChildProcess
  stop(): Promise<void>
}

/** Starts the installed `animal-store-mock` bin with `node` on a free port and waits for its address. */
export async function startInstalledMock(node: string, app: string, args: string[]): Promise<InstalledMock> {
  const bin = join(app, 'node_modules/animal-store-contract-kit/dist/scripts/start-mock.js')
  const child = spawn(node, [bin, '--port', '0', ...args], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const stop = async () => void (await stopProcess(child))
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address within 30 s:\n${output}`)), 30_000)
      const collect = (chunk: Buffer) => {
        output += chunk
        const url = /listening on (\S+)/.exec(output)?.[1]
        if (url) {
          clearTimeout(timer)
          resolve(url)
        }
      }
      child.stdout.on('data', collect)
      child.stderr.on('data', collect)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`exited (${code}):\n${output}`))
      })
    })
    return { baseUrl, child, stop }
  } catch (error) {
    await stop()
    throw new Error(`The installed animal-store-mock did not start: ${(error as Error).message}`)
  }
}
