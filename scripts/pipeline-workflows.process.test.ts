import { execFile } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { findFreePort } from '../mocks/local-port.ts'
import { brokenServerKey, brokenServers } from '../suites/proof/broken-servers.ts'
import { loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'

// The pipeline examples users copy (docs/github-actions/, shown in docs/pipelines.md): every call of the
// command checked with the command's own parser and config-file reader, every environment variable a step
// sets checked to be read, the hardening a release pipeline needs, and the steps' own shell scripts run
// as Actions runs them (bash -eo pipefail) against servers on 127.0.0.1.
const root = fileURLToPath(new URL('..', import.meta.url))
const examples = join(root, 'docs/github-actions')
const bin = 'animal-store-conformance'
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

interface Step {
  name?: string
  id?: string
  run?: string
  uses?: string
  if?: string
  env?: Record<string, string>
  with?: Record<string, string>
}
interface Job {
  if?: string
  env?: Record<string, string>
  needs?: string
  environment?: string
  'timeout-minutes'?: number
  services?: Record<string, unknown>
  steps: Step[]
}
interface Workflow {
  on: Record<string, unknown>
  permissions: Record<string, string>
  concurrency?: { group: string; 'cancel-in-progress': boolean }
  jobs: Record<string, Job>
}
const read = (file: string) => parse(readFileSync(join(examples, file), 'utf8')) as Workflow
const workflows = { 'promote.yml': read('promote.yml'), 'pull-request.yml': read('pull-request.yml') }
const promote = workflows['promote.yml']
const pullRequest = workflows['pull-request.yml']

function stepOf(workflow: Workflow, name: string): Step {
  const found = workflow.jobs.conformance?.steps.find((one) => one.id === name || one.name === name)
  if (!found) throw new Error(`The workflow has no step "${name}" in job conformance.`)
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

const commandsOf = (workflow: Workflow) =>
  Object.values(workflow.jobs).flatMap((job) =>
    job.steps.flatMap((each) => (each.run ? commandLines(each.run) : [])),
  )

const optionEnv: string[] = Object.values(conformanceCommand.options).flatMap((option) =>
  'env' in option && option.env ? [option.env] : [],
)

describe.each(Object.entries(workflows))(
  '%s calls the command as it accepts, hardened for a release',
  (_, workflow) => {
    const calls = commandsOf(workflow).filter((words) => words.includes(bin))
    const job = workflow.jobs.conformance as Job

    it('calls animal-store-conformance, the command the package installs', () => {
      expect(Object.keys(packageJson.bin)).toContain(bin)
      expect(calls.length).toBeGreaterThan(0)
    })

    it('passes only options the command defines, and its config file holds only keys the command reads', async () => {
      for (const words of calls) {
        const args = words.slice(words.indexOf(bin) + 1)
        // The command's own parser and config reader: an unknown flag or key, or a value of the wrong kind,
        // throws a usage error. The file is read as the command reads it from the repository's root.
        const { values, configPath } = await loadCommand(conformanceCommand, args, {}, examples)
        expect(configPath).toBe('animal-store.config.yaml')
        // A key on the command line is visible to every process on the runner.
        expect(values['api-key']).toBeUndefined()
        expect(values.baseline).toBe('conformance-baseline.json')
        expect(existsSync(join(examples, values.baseline ?? ''))).toBe(true)
      }
    })

    it('sets no environment variable that nothing reads', () => {
      const config = readFileSync(join(examples, 'animal-store.config.yaml'), 'utf8')
      const scripts = job.steps.map((each) => each.run ?? '').join('\n')
      for (const scope of [job.env ?? {}, ...job.steps.map((each) => each.env ?? {})])
        for (const name of Object.keys(scope)) {
          const read =
            optionEnv.includes(name) ||
            new RegExp(`\\$\\{?${name}\\b`).test(scripts) ||
            config.includes(`env: ${name}`)
          // A variable for the team's own server (its database, port, key) is read by `npm start`, not by us.
          const forTheServer = workflow === pullRequest && ['DATABASE_URL', 'PORT', 'API_KEY'].includes(name)
          expect(read || forTheServer, `${name} is set but nothing reads it`).toBe(true)
        }
    })

    it('pins every action by commit and the tool by version, reads the repository only, and has a deadline', () => {
      const uses = Object.values(workflow.jobs).flatMap((one) =>
        one.steps.flatMap((each) => (each.uses ? [each.uses] : [])),
      )
      expect(uses.length).toBeGreaterThan(0)
      for (const action of uses) expect(action, action).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/)
      const raw = readFileSync(
        join(examples, workflow === promote ? 'promote.yml' : 'pull-request.yml'),
        'utf8',
      )
      for (const line of raw.split('\n').filter((one) => one.includes('uses: ')))
        expect(line, 'a pinned action names its version in a comment').toMatch(
          /@[0-9a-f]{40} # v\d+\.\d+\.\d+$/,
        )
      expect(workflow.permissions).toEqual({ contents: 'read' })
      for (const one of Object.values(workflow.jobs)) expect(one['timeout-minutes']).toBeGreaterThan(0)
      expect(workflow.concurrency?.group).toBeTruthy()
      const install = commandsOf(workflow).find((words) => words[0] === 'npm' && words[1] === 'install')
      expect(install).toContain('$KIT_PACKAGE')
      expect(install).toContain(`vitest@${packageJson.devDependencies.vitest}`)
      // The config file is YAML, read through the optional peer yaml.
      expect(install).toContain(`yaml@${packageJson.devDependencies.yaml}`)
      expect(packageJson.peerDependenciesMeta.yaml).toEqual({ optional: true })
      expect(packageJson.devDependencies.vitest).toMatch(/^\d+\.\d+\.\d+$/)
      expect(job.env?.KIT_PACKAGE).toMatch(new RegExp(`/${packageJson.name}-${packageJson.version}\\.tgz$`))
    })

    it('uploads the reports even when the run fails', () => {
      const upload = job.steps.find((each) => each.uses?.startsWith('actions/upload-artifact@'))
      expect(upload?.if).toBe('always()')
      expect(upload?.with?.path).toContain('reports/')
    })
  },
)

describe('promote.yml gates a deployment on staging', () => {
  it('runs on each successful deployment to staging, and by hand', () => {
    expect(Object.keys(promote.on)).toEqual(['deployment_status', 'workflow_dispatch'])
    expect(promote.jobs.conformance?.if).toMatch(/deployment_status\.state == 'success'/)
    expect(promote.jobs.conformance?.if).toMatch(/deployment\.environment == 'staging'/)
  })

  it('runs in the protected staging environment, one check at a time, never cancelled half-way', () => {
    expect(promote.jobs.conformance?.environment).toBe('staging')
    expect(promote.concurrency).toEqual({ group: 'promote-staging', 'cancel-in-progress': false })
  })

  it('gives the key from a secret and the URL from a variable, in the environment variables the command reads', () => {
    const env = stepOf(promote, 'conformance').env ?? {}
    expect(env.CONFORMANCE_API_KEY).toMatch(/^\$\{\{\s*secrets\.\w+\s*\}\}$/)
    expect(env.CONFORMANCE_BASE_URL).toMatch(/^\$\{\{\s*vars\.\w+\s*\}\}$/)
    expect(optionEnv).toEqual(expect.arrayContaining(Object.keys(env)))
  })

  it('promotes only after the conformance job', () => {
    expect(promote.jobs.promote?.needs).toBe('conformance')
  })
})

describe('pull-request.yml checks the team’s own server on every pull request', () => {
  it('runs on pull requests, with a Postgres service and the server on 127.0.0.1', () => {
    expect(Object.keys(pullRequest.on)).toEqual(['pull_request'])
    expect(pullRequest.concurrency?.['cancel-in-progress']).toBe(true)
    expect(Object.keys(pullRequest.jobs.conformance?.services ?? {})).toEqual(['postgres'])
    expect(pullRequest.jobs.conformance?.env?.CONFORMANCE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
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

/** A fresh workspace holding what the workflow reads from the repository's root. */
function workspace(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'workflow-'))
  for (const file of ['animal-store.config.yaml', 'conformance-baseline.json'])
    copyFileSync(join(examples, file), join(cwd, file))
  return cwd
}

const checkStaging = (stagingUrl: string) =>
  runStep(
    stepOf(promote, 'conformance').run ?? '',
    { CONFORMANCE_BASE_URL: stagingUrl, CONFORMANCE_API_KEY: brokenServerKey },
    workspace(),
  )
const decide = (code: string, cwd: string) =>
  runStep(stepOf(promote, 'Decide').run ?? '', { CODE: code }, cwd)

describe('promote.yml’s steps, run as Actions runs them', () => {
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
    const uploaded = stepOf(promote, 'Upload the reports').with?.path?.split('\n').filter(Boolean) ?? []
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

describe('pull-request.yml’s steps, run as Actions runs them, against a server that starts late', () => {
  let server: Awaited<ReturnType<typeof serveHttp>> | undefined
  afterAll(async () => {
    await server?.close()
  })

  it('waits until the server answers, then checks it and passes a correct one', async () => {
    const port = await findFreePort()
    const env = {
      CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}/v1`,
      CONFORMANCE_API_KEY: 'contract-check-key',
    }
    const cwd = workspace()
    // The team's server (here our mock) starts two seconds after the wait begins.
    const waiting = runStep(stepOf(pullRequest, 'Wait for your server').run ?? '', env, cwd)
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    server = await serveHttp(createMockApi({ apiKeys: ['contract-check-key'] }).handle, {
      port,
      host: '127.0.0.1',
    })
    const waited = await waiting
    expect(waited.code, waited.output).toBe(0)
    expect(waited.output).toMatch(/The server answers after \d+ s\./)

    const checked = await runStep(
      stepOf(pullRequest, 'Check your server against the contract').run ?? '',
      env,
      cwd,
    )
    expect(checked.code, checked.output).toBe(0)
    expect(checked.output).toContain('Options from animal-store.config.yaml')
    expect(checked.summary).toContain('## Animal Store conformance: ✅ conforms')
    expect(existsSync(join(cwd, 'reports/junit.xml'))).toBe(true)
  }, 180_000)

  it('fails the wait with an annotation when nothing answers', async () => {
    const port = await findFreePort()
    // The loop's 60 attempts, shortened: the same script with its bound lowered, still bounded.
    const script = (stepOf(pullRequest, 'Wait for your server').run ?? '').replace('seq 1 60', 'seq 1 2')
    const waited = await runStep(script, { CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}/v1` }, workspace())
    expect(waited.code).toBe(1)
    expect(waited.output).toContain('::error title=The server did not start::')
  }, 60_000)
})
