import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { invokedCommand } from './invoked-command.ts'

// The replay line a run prints is run again where it was printed: in a shell, in the same directory,
// with the same PATH. Each case is a layout the command is started from, the CI runner's among them.
const root = fileURLToPath(new URL('../..', import.meta.url))
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'invoked-command-')))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A stand-in for the installed command: prints what it was given. */
function installKit(dir: string): { entry: string; bin: string } {
  const scripts = join(dir, 'node_modules', 'animal-store-contract-kit', 'dist', 'scripts')
  mkdirSync(scripts, { recursive: true })
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true })
  const entry = join(scripts, 'conformance.js')
  writeFileSync(entry, "#!/usr/bin/env node\nconsole.log('replayed:', process.argv.slice(2).join(' '))\n")
  chmodSync(entry, 0o755)
  const bin = join(dir, 'node_modules', '.bin', 'animal-store-conformance')
  symlinkSync(entry, bin)
  return { entry, bin }
}

/** Runs the printed command with `args` through sh, where it was printed; resolves to its stdout. */
function replay(command: string, args: string, cwd: string, PATH: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'sh',
      ['-c', `${command} ${args}`],
      { cwd, env: { PATH, HOME: scratch }, timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${command} ${args}: ${stderr}`)) : resolve(stdout),
    ),
  )
}

const systemPath = process.env.PATH ?? ''

describe('the replay line runs again where it was printed', () => {
  it('names the bare bin on a CI runner whose kit is installed elsewhere, its bin folder on PATH', async () => {
    const kit = join(scratch, 'runner-temp-kit')
    const project = join(scratch, 'checkout')
    mkdirSync(project, { recursive: true })
    const { entry } = installKit(kit)
    const PATH = [join(kit, 'node_modules', '.bin'), systemPath].join(delimiter)
    const command = invokedCommand({ env: { PATH }, entry, cwd: project })
    // `npx animal-store-conformance` would look in the checkout, find nothing, and offer a download.
    expect(command).toBe('animal-store-conformance')
    expect(await replay(command, '--seed 7', project, PATH)).toBe('replayed: --seed 7\n')
  })

  it('names npx where the working directory’s node_modules holds the bin', async () => {
    const project = join(scratch, 'project')
    mkdirSync(project, { recursive: true })
    writeFileSync(join(project, 'package.json'), '{"name":"project","private":true}\n')
    const { entry } = installKit(project)
    const command = invokedCommand({ env: { PATH: systemPath }, entry, cwd: project })
    expect(command).toBe('npx animal-store-conformance')
    expect(await replay(command, '--seed 7', project, systemPath)).toBe('replayed: --seed 7\n')
  })

  it('names node and the entry’s path when neither PATH nor npx would find it', async () => {
    const { entry } = installKit(join(scratch, 'somewhere else'))
    const command = invokedCommand({ env: { PATH: systemPath }, entry, cwd: scratch })
    expect(command).toBe(
      `node 'somewhere else/node_modules/animal-store-contract-kit/dist/scripts/conformance.js'`,
    )
    expect(await replay(command, '--seed 7', scratch, systemPath)).toBe('replayed: --seed 7\n')
  })

  it('names the npm script, or the launcher, inside this repository', async () => {
    const entry = join(root, 'scripts', 'conformance.ts')
    expect(invokedCommand({ env: { npm_lifecycle_event: 'conformance' }, entry, cwd: root })).toBe(
      'npm run conformance --',
    )
    const command = invokedCommand({ env: { PATH: systemPath }, entry, cwd: root })
    expect(command).toBe('node scripts/launch.mjs scripts/conformance.ts')
    expect(await replay(command, '--help', root, systemPath)).toContain('Usage: animal-store-conformance')
    expect(await replay('npm run conformance --', '--help', root, systemPath)).toContain(
      'Usage: animal-store-conformance',
    )
  })
})
