import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { conformanceCommand } from '../conformance-options.ts'
import { loadCommand } from './command-options.ts'
import { UsageError } from './usage-error.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'animal-store-config-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (name: string, content: unknown) =>
  writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content))
const load = (argv: string[] = [], env: Record<string, string> = {}) =>
  loadCommand(conformanceCommand, argv, env, dir)

describe('the conformance config file', () => {
  it('is read from animal-store.config.json in the working directory, with the option names as keys', async () => {
    write('animal-store.config.json', {
      'base-url': 'http://127.0.0.1:9/v1',
      timeout: 600,
      'read-only': true,
    })
    const parsed = await load()
    expect(parsed.configPath).toBe('animal-store.config.json')
    expect(parsed.values).toMatchObject({
      'base-url': 'http://127.0.0.1:9/v1',
      timeout: 600,
      'read-only': true,
    })
    expect(parsed.sources).toMatchObject({ timeout: 'config file', 'request-timeout': 'default' })
  })

  it('reads YAML too, and the file --config names instead of the default one', async () => {
    write('animal-store.config.json', { timeout: 1 })
    write('staging.yaml', 'timeout: 900\nmax-examples: 3\n')
    expect((await load(['--config', 'staging.yaml'])).values).toMatchObject({
      timeout: 900,
      'max-examples': 3,
    })
  })

  it('loses to the command line and to the environment', async () => {
    write('animal-store.config.yaml', 'base-url: http://file.test/v1\ntimeout: 600\n')
    const parsed = await load(['--timeout', '30'], { CONFORMANCE_BASE_URL: 'http://env.test/v1' })
    expect(parsed.values).toMatchObject({ timeout: 30, 'base-url': 'http://env.test/v1' })
  })

  it('refuses an unknown key and lists the allowed ones', async () => {
    write('animal-store.config.json', { timout: 600 })
    await expect(load()).rejects.toThrow(
      new UsageError(
        `animal-store.config.json: unknown key "timout". Allowed keys: ${Object.keys(conformanceCommand.options).join(', ')}.`,
      ),
    )
  })

  it('refuses a key written in it, and takes one from the environment variable it names', async () => {
    write('animal-store.config.json', { 'api-key': 'sk-live-123' })
    const refused = await load().catch((error: Error) => error)
    expect(refused).toBeInstanceOf(UsageError)
    expect((refused as Error).message).toMatch(/"api-key" is a secret and cannot be written in the file/)
    expect((refused as Error).message).not.toContain('sk-live-123')
    write('animal-store.config.json', { 'api-key': { env: 'STAGING_KEY' } })
    expect((await load([], { STAGING_KEY: 'from-env' })).values['api-key']).toBe('from-env')
    await expect(load()).rejects.toThrow('reads the environment variable STAGING_KEY, which is not set')
  })

  it('refuses a base URL with credentials in it', async () => {
    write('animal-store.config.json', { 'base-url': 'https://ci:hunter2@staging.test/v1' })
    const refused = await load().catch((error: Error) => error)
    expect((refused as Error).message).toMatch(/"base-url" holds credentials/)
    expect((refused as Error).message).not.toContain('hunter2')
  })

  it('refuses a value of the wrong kind, naming the file and the key', async () => {
    write('animal-store.config.json', { timeout: 'soon' })
    await expect(load()).rejects.toThrow(
      'animal-store.config.json: "timeout" must be a number of seconds above 0 and at most 86400; got "soon".',
    )
    write('animal-store.config.json', { seed: { nested: 1 } })
    await expect(load()).rejects.toThrow(
      'animal-store.config.json: "seed" must be a whole number from 0 to 2147483647, or {"env": "VARIABLE"}.',
    )
  })

  it('a missing or unparsable file named by --config is a usage error', async () => {
    await expect(load(['--config', 'missing.json'])).rejects.toThrow(
      /cannot read the config file missing.json: ENOENT/,
    )
    write('broken.json', '{"timeout": ')
    await expect(load(['--config', 'broken.json'])).rejects.toThrow(
      /the config file broken.json does not parse/,
    )
  })

  it('makes the installed command exit 2 with the allowed keys, before any request', async () => {
    write('animal-store.config.json', { 'base-url': 'http://127.0.0.1:9/v1', bogus: 1 })
    const launch = fileURLToPath(new URL('../launch.mjs', import.meta.url))
    const script = fileURLToPath(new URL('../conformance.ts', import.meta.url))
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [launch, script],
        { cwd: dir, env: { ...process.env, CONFORMANCE_API_KEY: 'k' }, timeout: 60_000 },
        (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
      )
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('unknown key "bogus". Allowed keys: base-url, api-key')
  })
})
