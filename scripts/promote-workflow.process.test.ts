import { execFile } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { findFreePort } from '../mocks/local-port.ts'
import { brokenServerKey, brokenServers } from '../suites/broken-servers.ts'
import { parseCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'

// The pipeline example users copy (docs/github-actions/promote.yml, shown in the README): every call of the
// command checked against the options the command itself parses with, the install line against the
// package, and the steps' own shell scripts run as Actions runs them (bash -eo pipefail) against a
// server that breaks the contract and against an address where nothing listens.
const root = fileURLToPath(new URL('..', import.meta.url))
const workflowFile = 'docs/github-actions/promote.yml'
const bin = 'animal-store-conformance'

interface Step {
  name?: string
  id?: string
  run?: string
  uses?: string
  env?: Record<string, string>
  with?: Record<string, string>
}
interface Job {
  env?: Record<string, string>
  needs?: string
  steps: Step[]
}
const workflow = parse(readFileSync(join(root, workflowFile), 'utf8')) as { jobs: Record<string, Job> }
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const job = workflow.jobs.conformance as Job
const step = (id: string) => {
  const found = job.steps.find((one) => one.id === id || one.name === id)
  if (!found) throw new Error(`${workflowFile} has no step "${id}" in job conformance.`)
  return found
}

/** The shell lines of a script, continuation lines joined, split into words (the quoting the file uses). */
function commandLines(script: string): string[][] {
  return script
    .replaceAll('\\\n', ' ')
    .split('\n')
    .map((line) =>
      [...line.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map(([word]) => word.replace(/^(["'])(.*)\1$/, '$2')),
    )
    .filter((words) => words.length > 0)
}

const allCommands = Object.values(workflow.jobs).flatMap((one) =>
  one.steps.flatMap((each) => (each.run ? commandLines(each.run) : [])),
)

describe('the promotion workflow calls the command as it accepts', () => {
  const calls = allCommands.filter((words) => words.includes(bin))

  it('calls animal-store-conformance, the command the package installs', () => {
    expect(Object.keys(packageJson.bin)).toContain(bin)
    expect(calls.length).toBeGreaterThan(0)
  })

  it('passes only options the command defines, each with a value of the kind it takes', () => {
    for (const words of calls) {
      const args = words.slice(words.indexOf(bin) + 1)
      // The command's own parser: an unknown flag or a value of the wrong kind throws a usage error.
      const { values } = parseCommand(conformanceCommand, args, {})
      expect(values['base-url'], 'the staging URL').toBe('$STAGING_URL')
      // A key on the command line is visible to every process on the runner.
      expect(values['api-key']).toBeUndefined()
    }
  })

  it('gives the key from a secret, in the environment variable the command reads', () => {
    expect(step('conformance').env?.CONFORMANCE_API_KEY).toMatch(/^\$\{\{\s*secrets\.\w+\s*\}\}$/)
  })

  it('installs only the package and the vitest the package asks for', () => {
    const install = allCommands.find((words) => words[0] === 'npm' && words[1] === 'install')
    expect(install).toContain('$KIT_PACKAGE')
    expect(install).toContain(`vitest@${packageJson.peerDependencies.vitest}`)
    expect(job.env?.KIT_PACKAGE).toMatch(new RegExp(`/${packageJson.name}-${packageJson.version}\\.tgz$`))
    expect(allCommands.some((words) => words[0] === 'npm' && words[1] === 'ci')).toBe(false)
  })

  it('promotes only after the conformance job', () => {
    expect(workflow.jobs.promote?.needs).toBe('conformance')
  })
})

interface StepRun {
  code: number
  output: string
  outputs: Record<string, string>
  summary: string
  cwd: string
}

let shims: string

beforeAll(() => {
  // What `npm install` puts on PATH in the workflow: the command, here run from this repository.
  shims = mkdtempSync(join(tmpdir(), 'workflow-bin-'))
  writeFileSync(
    join(shims, bin),
    `#!/bin/sh\nexec "${process.execPath}" "${root}scripts/launch.mjs" "${root}scripts/conformance.ts" "$@"\n`,
  )
  chmodSync(join(shims, bin), 0o755)
})

/** Runs a step's script as GitHub Actions does: bash -eo pipefail, its env, the GITHUB_* files. */
function runStep(script: string, env: Record<string, string>, cwd: string): Promise<StepRun> {
  const outputFile = join(cwd, 'github-output')
  const summaryFile = join(cwd, 'github-step-summary')
  for (const file of [outputFile, summaryFile]) if (!existsSync(file)) writeFileSync(file, '')
  return new Promise((resolve) =>
    execFile(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script],
      {
        cwd,
        timeout: 180_000,
        env: {
          PATH: `${shims}:${process.env.PATH}`,
          HOME: process.env.HOME ?? tmpdir(),
          GITHUB_OUTPUT: outputFile,
          GITHUB_STEP_SUMMARY: summaryFile,
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          output: stdout + stderr,
          outputs: Object.fromEntries(
            readFileSync(outputFile, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
          ),
          summary: readFileSync(summaryFile, 'utf8'),
          cwd,
        }),
    ),
  )
}

const checkStaging = (stagingUrl: string) =>
  runStep(
    step('conformance').run ?? '',
    { STAGING_URL: stagingUrl, CONFORMANCE_API_KEY: brokenServerKey },
    mkdtempSync(join(tmpdir(), 'workflow-')),
  )
const decide = (code: string, cwd: string) => runStep(step('Decide').run ?? '', { CODE: code }, cwd)

describe('the workflow’s steps, run as Actions runs them', () => {
  const server = brokenServers.find((one) => one.defect === 'auth hole: any bearer key is accepted')
  let http: Awaited<ReturnType<typeof serveHttp>> | undefined

  afterAll(async () => {
    await http?.close()
  })

  it('reads a server that breaks the contract as exit 1, with the summary and every uploaded report', async () => {
    if (!server)
      throw new Error('The broken server "auth hole: any bearer key is accepted" is gone; pick another.')
    http = await serveHttp(server.build(), { port: 0, host: '127.0.0.1' })
    const checked = await checkStaging(`${http.origin}/v1`)
    expect(checked.code, checked.output).toBe(0)
    expect(checked.outputs['exit-code']).toBe('1')
    expect(checked.summary).toContain('## Animal Store conformance: ❌ does not conform')
    const uploaded = step('Upload the reports').with?.path?.split('\n').filter(Boolean) ?? []
    expect(uploaded.length).toBeGreaterThan(0)
    for (const path of uploaded) expect(existsSync(join(checked.cwd, path)), path).toBe(true)
    expect(uploaded).toContain('reports/conformance.html')

    const decided = await decide('1', checked.cwd)
    expect(decided.code).toBe(1)
    expect(decided.output).toContain('::error title=Staging breaks the contract::')
  }, 180_000)

  it('reads an unreachable staging server as exit 2, "could not be checked", never "breaks the contract"', async () => {
    const checked = await checkStaging(`http://127.0.0.1:${await findFreePort()}/v1`)
    expect(checked.code, checked.output).toBe(0)
    expect(checked.outputs['exit-code']).toBe('2')
    expect(checked.summary).toContain('Staging could not be checked')

    const decided = await decide('2', checked.cwd)
    expect(decided.code).toBe(1)
    expect(decided.output).toContain('::error title=Staging could not be checked::')
    expect(decided.output).not.toContain('breaks the contract')
  }, 60_000)

  it('lets the promotion go ahead on exit 0, and stops it when the command never ran', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'workflow-'))
    expect((await decide('0', cwd)).code).toBe(0)
    const missing = await decide('', cwd)
    expect(missing.code).toBe(1)
    expect(missing.output).toContain('did not run')
  })
})
