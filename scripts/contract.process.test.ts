import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { contractPath } from '../contract/contract-path.ts'

// The command as npm run contract starts it: its files, git, its exit codes. What it classifies is
// pinned in-process by contract/diff/diff-contracts.test.ts.
const root = fileURLToPath(new URL('..', import.meta.url))
const execute = promisify(execFile)

async function contractCommand(args: string[], cwd = root) {
  try {
    const { stdout, stderr } = await execute(
      process.execPath,
      [join(root, 'scripts/launch.mjs'), join(root, 'scripts/contract.ts'), ...args],
      { cwd },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

describe('animal-store-contract diff', () => {
  let repository: string
  beforeAll(async () => {
    // A repository whose last commit has the kit's contract, and a working copy with a lowered maximum.
    repository = mkdtempSync(join(tmpdir(), 'contract-diff-'))
    mkdirSync(join(repository, 'contract'))
    const yaml = readFileSync(contractPath, 'utf8')
    writeFileSync(join(repository, 'contract/openapi.yaml'), yaml)
    const git = (...args: string[]) =>
      execute('git', ['-c', 'user.name=test', '-c', 'user.email=test@localhost', ...args], {
        cwd: repository,
      })
    await git('init', '-q')
    await git('add', '.')
    await git('commit', '-q', '-m', 'contract')
    writeFileSync(join(repository, 'contract/openapi.yaml'), yaml.replace('maximum: 100', 'maximum: 50'))
  })

  it('reads BASE from a git revision, exits 1 on a breaking change, and writes both reports', async () => {
    const { code, stdout } = await contractCommand(
      [
        'diff',
        '--base-ref',
        'HEAD',
        'contract/openapi.yaml',
        '--json',
        'out/diff.json',
        '--markdown',
        'out/summary.md',
      ],
      repository,
    )
    expect(code).toBe(1)
    expect(stdout).toBe(readFileSync(join(repository, 'out/summary.md'), 'utf8'))
    expect(stdout).toContain(
      '| consumers | `listPets` `GET /pets` | `query parameter limit` | changed maximum 100 → 50 |',
    )
    const report = JSON.parse(readFileSync(join(repository, 'out/diff.json'), 'utf8'))
    expect(report.base.source).toBe('git show HEAD:contract/openapi.yaml')
    expect(report.changes).toMatchObject([
      {
        operation: { id: 'listPets', requestPath: '/v1/pets' },
        location: { parameter: { name: 'limit' } },
        breaks: ['consumers'],
      },
    ])
    expect(report.findings.map((finding: { kind: string }) => finding.kind)).toEqual(['version-not-bumped'])
  })

  it('exits 0 with --fail-on providers when the change breaks only clients', async () => {
    const { code, stdout } = await contractCommand(
      ['diff', '--base-ref', 'HEAD', 'contract/openapi.yaml', '--fail-on', 'providers', '--format', 'json'],
      repository,
    )
    expect(code).toBe(0)
    expect(JSON.parse(stdout).verdict).toEqual({ consumers: 1, providers: 0, counted: 0, exitCode: 0 })
  })

  it('exits 2 with what to do next for a revision git does not know, and for a missing file', async () => {
    const revision = await contractCommand(['diff', '--base-ref', 'no-such-branch'], repository)
    expect(revision.code).toBe(2)
    expect(revision.stdout).toBe('')
    expect(revision.stderr).toContain('cannot read BASE with "git show no-such-branch:contract/openapi.yaml"')
    expect(revision.stderr).toContain('Check the revision exists here')
    const missing = await contractCommand(['diff', 'missing.yaml'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(
      'cannot read BASE missing.yaml: no such file. Give the path of an OpenAPI 3.1 document',
    )
  })

  it('runs the snippet docs/contract-diff.md shows, as a pull request job would', async () => {
    // The installed bin, as npm ci links it, started the way npm run contract starts it.
    mkdirSync(join(repository, 'node_modules/.bin'), { recursive: true })
    const bin = join(repository, 'node_modules/.bin/animal-store-contract')
    writeFileSync(
      bin,
      `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'scripts/launch.mjs')}" "${join(root, 'scripts/contract.ts')}" "$@"\n`,
    )
    chmodSync(bin, 0o755)
    await execute('git', ['update-ref', 'refs/remotes/origin/main', 'HEAD'], { cwd: repository })
    const { GITHUB_STEP_SUMMARY: _, ...env } = process.env
    const code = await execute('bash', [join(root, 'docs/snippets/contract-diff.sh')], {
      cwd: repository,
      env,
    }).then(
      () => 0,
      (error: { code: number }) => error.code,
    )
    expect(code).toBe(1)
    expect(readFileSync(join(repository, 'contract-diff.md'), 'utf8')).toContain('changed maximum 100 → 50')
    expect(JSON.parse(readFileSync(join(repository, 'contract-diff.json'), 'utf8')).base.source).toBe(
      'git show origin/main:contract/openapi.yaml',
    )
  })

  it("compares with the kit's own contract when HEAD is not given", async () => {
    const { code, stdout } = await contractCommand(['diff', contractPath])
    expect(code).toBe(0)
    expect(stdout).toContain('## Contract diff: passes')
  })
})
