import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { contract } from '../contract/index.ts'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { findFreePort } from '../mocks/local-port.ts'
import { brokenServerKey, brokenServers } from '../suites/proof/broken-servers.ts'
import { scratchDir } from '../suites/proof/scratch-dir.ts'
import { loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'
import { type FakeGhSetup, fakeGh, previousReport } from './proof/fake-gh.ts'
import { binFolder, recipeFiles, runStep, validateWorkflow, workspace } from './proof/workflow-steps.ts'

// The pipeline examples users copy (docs/github-actions/, shown in docs/pipelines.md): both validated by
// @action-validator/cli, every call of the command checked with the command's own parser and config-file
// reader, every environment variable a step sets checked to be read, the hardening a security review
// asks for, and the steps' own shell scripts run as Actions runs them (bash -eo pipefail) against
// servers on 127.0.0.1, with git repositories and a fake `gh` where a step needs them.
const root = fileURLToPath(new URL('..', import.meta.url))
const examples = recipeFiles
const bin = 'animal-store-conformance'
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

interface Step {
  name?: string
  id?: string
  run?: string
  uses?: string
  if?: string
  env?: Record<string, string>
  with?: Record<string, string | number | boolean>
}
interface Job {
  if?: string
  env?: Record<string, string>
  needs?: string
  environment?: string
  permissions?: Record<string, string>
  outputs?: Record<string, string>
  'timeout-minutes'?: number
  services?: Record<string, { image: string }>
  steps: Step[]
}
interface Workflow {
  on: Record<string, { inputs?: Record<string, { required?: boolean }> } | null>
  permissions: Record<string, string>
  concurrency?: { group: string; 'cancel-in-progress': boolean }
  jobs: Record<string, Job>
}
const read = (file: string) => parse(readFileSync(join(examples, file), 'utf8')) as Workflow
const workflows = { 'promote.yml': read('promote.yml'), 'pull-request.yml': read('pull-request.yml') }
const promote = workflows['promote.yml']
const pullRequest = workflows['pull-request.yml']

function stepOf(workflow: Workflow, name: string, job = 'conformance'): Step {
  const found = workflow.jobs[job]?.steps.find((one) => one.id === name || one.name === name)
  if (!found) throw new Error(`The workflow has no step "${name}" in job ${job}.`)
  return found
}
/** An Actions expression as the workflow writes it, `${{ inner }}`. */
const expression = (inner: string) => ['$', '{{ ', inner, ' }}'].join('')
const scriptOf = (workflow: Workflow, name: string, job = 'conformance') =>
  stepOf(workflow, name, job).run ?? ''

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

/** The shell array of --pact options the workflows build from the fetched recordings. */
const pactArgs = ['$', '{pacts[@]}'].join('')

const optionEnv: string[] = Object.values(conformanceCommand.options).flatMap((option) =>
  'env' in option && option.env ? [option.env] : [],
)

describe.each(Object.entries(workflows))(
  '%s calls the command as it accepts, hardened for a release',
  (_, workflow) => {
    const calls = commandsOf(workflow).filter((words) => words[0] === bin)
    const job = workflow.jobs.conformance as Job
    const file = workflow === promote ? 'promote.yml' : 'pull-request.yml'

    it('passes @action-validator/cli, the validator a release engineer runs on workflows', async () => {
      const validated = await validateWorkflow(join(examples, file))
      expect(validated.code, validated.output).toBe(0)
    })

    it('calls animal-store-conformance, the command the package installs', () => {
      expect(Object.keys(packageJson.bin)).toContain(bin)
      expect(calls.length).toBeGreaterThan(0)
    })

    it('passes only options the command defines, and its config file holds only keys the command reads', async () => {
      for (const words of calls) {
        // The recordings' array stands for one --pact per file fetched.
        const args = words
          .slice(words.indexOf(bin) + 1)
          .flatMap((word) => (word === pactArgs ? ['--pact', 'pacts/web-app-animal-store.json'] : [word]))
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
      for (const one of Object.values(workflow.jobs)) {
        const scripts = one.steps.map((each) => each.run ?? '').join('\n')
        for (const scope of [one.env ?? {}, ...one.steps.map((each) => each.env ?? {})])
          for (const name of Object.keys(scope)) {
            const read =
              optionEnv.includes(name) ||
              new RegExp(`\\$\\{?${name}\\b`).test(scripts) ||
              config.includes(`env: ${name}`)
            // Read by programs, not scripts: the team's own server (`npm start`: its database, port and
            // key) and gh (its token and repository).
            const byAProgram = ['DATABASE_URL', 'PORT', 'API_KEY', 'GH_TOKEN', 'GH_REPO'].includes(name)
            expect(read || byAProgram, `${name} is set but nothing reads it`).toBe(true)
          }
      }
    })

    it('pins every action by commit and the tool by version, reads the repository only, and has a deadline', () => {
      const uses = Object.values(workflow.jobs).flatMap((one) =>
        one.steps.flatMap((each) => (each.uses ? [each.uses] : [])),
      )
      expect(uses.length).toBeGreaterThan(0)
      for (const action of uses) expect(action, action).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/)
      const raw = readFileSync(join(examples, file), 'utf8')
      for (const line of raw.split('\n').filter((one) => one.includes('uses: ')))
        expect(line, 'a pinned action names its version in a comment').toMatch(
          /@[0-9a-f]{40} # v\d+\.\d+\.\d+$/,
        )
      expect(workflow.permissions).toEqual({ contents: 'read' })
      for (const one of Object.values(workflow.jobs)) expect(one['timeout-minutes']).toBeGreaterThan(0)
      expect(workflow.concurrency?.group).toBeTruthy()
    })

    it('installs from the lockfile with no install script run, the kit being a devDependency there', () => {
      const npm = commandsOf(workflow).filter((words) => words[0] === 'npm')
      // One source of versions: package-lock.json. No second copy of the kit, no tarball, no version here.
      // One install per job that runs the kit's commands.
      for (const words of npm) expect(words.slice(0, 3)).toEqual(['npm', 'ci', '--ignore-scripts'])
      const runsTheKit = Object.values(workflow.jobs).filter((one) =>
        one.steps.some((each) =>
          commandLines(each.run ?? '').some((words) => words[0]?.startsWith('animal-store-')),
        ),
      )
      expect(npm.length).toBe(runsTheKit.length)
      expect(JSON.stringify(workflow)).not.toMatch(/\.tgz|KIT_PACKAGE|vitest@|npm install/)
      // The kit's command is the one npm ci put in node_modules/.bin, put on PATH for the later steps.
      const install = job.steps.find((each) => each.run?.includes('npm ci'))
      expect(install?.run).toContain('echo "$GITHUB_WORKSPACE/node_modules/.bin" >> "$GITHUB_PATH"')
    })

    it('pins every service image by digest', () => {
      for (const one of Object.values(workflow.jobs))
        for (const service of Object.values(one.services ?? {}))
          expect(service.image, service.image).toMatch(/@sha256:[0-9a-f]{64}$/)
    })

    it('uploads the reports even when the run fails, and keeps the full exchanges only a few days', () => {
      const uploads = job.steps.filter((each) => each.uses?.startsWith('actions/upload-artifact@'))
      const paths = uploads.flatMap((each) => String(each.with?.path).split('\n').filter(Boolean))
      expect(paths.sort()).toEqual([
        'reports/conformance.html',
        'reports/conformance.json',
        'reports/junit.xml',
        'reports/summary.md',
      ])
      for (const upload of uploads) {
        expect(upload.if).toBe('always()')
        expect(upload.with?.['retention-days']).toBeGreaterThan(0)
        // The JSON and HTML hold every request and response in full.
        if (String(upload.with?.path).includes('conformance.html'))
          expect(upload.with?.['retention-days']).toBeLessThanOrEqual(7)
      }
    })
  },
)

describe('the config file for a staging behind a gateway', () => {
  it('holds only keys the command reads: an internal CA, a rate limit, and a proxy from the environment', async () => {
    const proxy = 'http://ci:proxy-password@proxy.internal.test:3128'
    const { values, configPath } = await loadCommand(
      conformanceCommand,
      ['--config', 'animal-store.config.behind-a-gateway.yaml'],
      { STAGING_PROXY_URL: proxy },
      examples,
    )
    expect(configPath).toBe('animal-store.config.behind-a-gateway.yaml')
    expect(values).toMatchObject({ ca: 'certs/internal-ca.pem', 'rate-limit': '10/s', proxy })
    expect(values.baseline).toBe('conformance-baseline.json')
  })
})

describe('promote.yml gates a deployment on staging', () => {
  it('would fail the validator with a planted mistake (a job key misspelt)', async () => {
    const planted = join(scratchDir('workflow-'), 'promote.yml')
    writeFileSync(planted, readFileSync(join(examples, 'promote.yml'), 'utf8').replace('runs-on:', 'run-on:'))
    const validated = await validateWorkflow(planted)
    expect(validated.code).toBe(1)
    expect(validated.output).toContain("Additional property 'run-on' is not allowed")
  })

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

  it('runs by hand only from the default branch, for a commit given in full', () => {
    expect(promote.jobs.conformance?.if).toMatch(
      /github\.event_name == 'workflow_dispatch' &&\s+github\.ref == format\('refs\/heads\/\{0\}', github\.event\.repository\.default_branch\)/,
    )
    expect(promote.on.workflow_dispatch?.inputs?.sha?.required).toBe(true)
  })

  it('checks out the deployed commit, and hands exactly that one to the promotion in production', () => {
    const checkout = promote.jobs.conformance?.steps.find((each) =>
      each.uses?.startsWith('actions/checkout@'),
    )
    expect(checkout?.with?.ref).toBe(expression('github.event.deployment.sha || inputs.sha'))
    expect(promote.jobs.conformance?.env?.CHECKED_SHA).toBe(checkout?.with?.ref)
    expect(promote.jobs.conformance?.outputs?.sha).toBe(expression('steps.commit.outputs.sha'))
    expect(promote.jobs.promote?.needs).toBe('conformance')
    expect(promote.jobs.promote?.environment).toBe('production')
    expect(promote.jobs.promote?.env?.CHECKED_SHA).toBe(expression('needs.conformance.outputs.sha'))
    expect(promote.jobs.promote?.env?.DEPLOYED_SHA).toBe(checkout?.with?.ref)
    const steps = promote.jobs.promote?.steps.map((each) => each.name ?? each.uses?.split('@')[0]) ?? []
    expect(steps.indexOf('Verify the commit')).toBeLessThan(steps.indexOf('Promote staging to production'))
  })

  it('waits for staging to answer before checking it', () => {
    const steps = promote.jobs.conformance?.steps.map((each) => each.name ?? each.id) ?? []
    expect(steps.indexOf('Wait for staging')).toBeGreaterThan(-1)
    expect(steps.indexOf('Wait for staging')).toBeLessThan(
      steps.indexOf('Check staging against the contract'),
    )
  })
})

describe('pull-request.yml checks the team’s own server on every pull request', () => {
  it('runs on pull requests, with a Postgres service and the server on 127.0.0.1', () => {
    // And on pushes to the default branch, whose checks the pull requests' reports compare with.
    expect(Object.keys(pullRequest.on)).toEqual(['pull_request', 'push'])
    expect(pullRequest.concurrency?.['cancel-in-progress']).toBe(true)
    expect(Object.keys(pullRequest.jobs.conformance?.services ?? {})).toEqual(['postgres'])
    expect(pullRequest.jobs.conformance?.env?.CONFORMANCE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
  })

  it('posts the summary from a job of its own, the only one whose token may write, and not for forks', () => {
    expect(pullRequest.jobs.conformance?.permissions).toEqual({ contents: 'read', actions: 'read' })
    const comment = pullRequest.jobs.comment
    expect(comment?.needs).toBe('conformance')
    expect(comment?.permissions).toEqual({ 'pull-requests': 'write' })
    expect(comment?.if).toMatch(/!cancelled\(\)/)
    expect(comment?.if).toMatch(/github\.event\.pull_request\.head\.repo\.full_name == github\.repository/)
    const download = comment?.steps.find((each) => each.uses?.startsWith('actions/download-artifact@'))
    const upload = pullRequest.jobs.conformance?.steps.find((each) => each.name === 'Upload the reports')
    expect(download?.with?.name).toBe(upload?.with?.name)
    expect(String(upload?.with?.path)).toContain('reports/summary.md')
  })
})

let pathBin: string

beforeAll(() => {
  pathBin = binFolder()
})

const promoteRef = 'team/server/.github/workflows/promote.yml@refs/heads/main'
/** Runs "Fetch the previous report" in `cwd` with `gh` faked as `setup` says. */
async function fetchPrevious(workflow: Workflow, setup: FakeGhSetup, cwd: string, env = {}) {
  const gh = fakeGh(setup)
  const run = await runStep(
    scriptOf(workflow, 'Fetch the previous report'),
    { ...gh.env, GH_TOKEN: 'ghs_not-a-token', GH_REPO: 'team/server', ...env },
    cwd,
    gh.bin,
  )
  return { run, calls: gh.calls() }
}
/** The promotion's fetch of the previous report, then its check of staging, as the job runs them. */
async function checkStaging(stagingUrl: string, previous: FakeGhSetup) {
  const cwd = workspace()
  const fetched = await fetchPrevious(promote, previous, cwd, { GITHUB_WORKFLOW_REF: promoteRef })
  expect(fetched.run.code, fetched.run.output).toBe(0)
  return runStep(
    scriptOf(promote, 'conformance'),
    { CONFORMANCE_BASE_URL: stagingUrl, CONFORMANCE_API_KEY: brokenServerKey },
    cwd,
    pathBin,
  )
}
const decide = (code: string, cwd: string) =>
  runStep(scriptOf(promote, 'Decide'), { CODE: code, CHECKED_SHA: 'a'.repeat(40) }, cwd, pathBin)

describe('promote.yml’s steps, run as Actions runs them', () => {
  const server = brokenServers.find((one) => one.defect === 'auth hole: any bearer key is accepted')
  let http: Awaited<ReturnType<typeof serveHttp>> | undefined

  afterAll(async () => {
    await http?.close()
  })

  it('reads a server that breaks the contract as exit 1, with the summary and every uploaded report, even when gh fails', async () => {
    if (!server)
      throw new Error('The broken server "auth hole: any bearer key is accepted" is gone; pick another.')
    http = await serveHttp(server.build(), { port: 0, host: '127.0.0.1' })
    // gh fails (GitHub down): no previous report, which the command notes; the gate judges all the same.
    const checked = await checkStaging(`${http.origin}/v1`, { fail: true })
    expect(checked.code, checked.output).toBe(0)
    expect(checked.outputs['exit-code']).toBe('1')
    expect(checked.summary).toContain('## Animal Store conformance: ❌ does not conform')
    expect(checked.summary).toContain(
      'No previous report at `previous/conformance.json`: nothing to compare with',
    )
    const uploaded =
      promote.jobs.conformance?.steps
        .filter((each) => each.uses?.startsWith('actions/upload-artifact@'))
        .flatMap((each) => String(each.with?.path).split('\n').filter(Boolean)) ?? []
    expect(uploaded.length).toBeGreaterThan(0)
    for (const path of uploaded) expect(existsSync(join(checked.cwd, path)), path).toBe(true)
    expect(uploaded).toContain('reports/conformance.html')

    const decided = await decide('1', checked.cwd)
    expect(decided.code).toBe(1)
    expect(decided.output).toContain('::error title=Staging breaks the contract::')
  }, 180_000)

  it('reads an unreachable staging server as exit 2, "could not be checked", never "breaks the contract"', async () => {
    // The first run: no earlier run, so no previous report.
    const checked = await checkStaging(`http://127.0.0.1:${await findFreePort()}/v1`, { runs: {} })
    expect(checked.code, checked.output).toBe(0)
    expect(checked.outputs['exit-code']).toBe('2')
    // The run wrote its summary with the reason, and the Decide step quotes that reason.
    expect(checked.summary).toContain('**Exit 2 (`unreachable`):** `Cannot reach')

    const decided = await decide('2', checked.cwd)
    expect(decided.code).toBe(1)
    expect(decided.output).toContain('::error title=Staging could not be checked::')
    expect(decided.output).toContain('Cannot reach')
    expect(decided.output).not.toContain('breaks the contract')
  }, 60_000)

  it('quotes the reason conformance.json gives for exit 2 in the annotation, once: the summary has it from the command', async () => {
    const cwd = workspace()
    mkdirSync(join(cwd, 'reports'), { recursive: true })
    const reason = {
      kind: 'throttled',
      message: 'Staging is throttling: 44 of 291 requests refused (100%).\n::add-mask::x',
      advice: 'Try --rate-limit 1/s, or `rate-limit: 1/s` in the config file.',
    }
    writeFileSync(join(cwd, 'reports/conformance.json'), JSON.stringify({ reason }))
    const decided = await decide('2', cwd)
    expect(decided.code).toBe(1)
    // One line: the message's line break cannot start a workflow command, and % is escaped as Actions asks.
    expect(decided.output).toContain(
      '::error title=Staging could not be checked::Staging is throttling: 44 of 291 requests refused (100%25). ::add-mask::x Try --rate-limit 1/s, or `rate-limit: 1/s` in the config file. (throttled)',
    )
    expect(decided.output).not.toMatch(/^::add-mask::/m)
    // The command wrote its summary, reason included, to the step summary: Decide adds no second copy.
    expect(decided.summary).not.toContain('Staging is throttling')
  })

  it('lets the promotion go ahead on exit 0, and stops it when the command never ran', async () => {
    const cwd = scratchDir('workflow-')
    const passed = await decide('0', cwd)
    expect(passed.code).toBe(0)
    expect(passed.output).toContain(`promoting ${'a'.repeat(40)}`)
    const missing = await decide('', cwd)
    expect(missing.code).toBe(1)
    expect(missing.output).toContain('did not run')
  })
})

/** A git repository whose default branch (as origin/main) holds one commit, and a side branch another. */
function repository(): { cwd: string; onMain: string; offMain: string } {
  const cwd = workspace()
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.invalid', ...args], {
      cwd,
      encoding: 'utf8',
    }).trim()
  git('init', '--quiet', '--initial-branch=main')
  git('commit', '--quiet', '--allow-empty', '-m', 'deployed')
  const onMain = git('rev-parse', 'HEAD')
  git('update-ref', 'refs/remotes/origin/main', onMain)
  git('checkout', '--quiet', '-b', 'side')
  git('commit', '--quiet', '--allow-empty', '-m', 'never merged')
  const offMain = git('rev-parse', 'HEAD')
  git('checkout', '--quiet', onMain)
  return { cwd, onMain, offMain }
}

describe('promote.yml ties the promotion to the commit it checked', () => {
  const verify = (env: Record<string, string>, cwd: string, job = 'conformance') =>
    runStep(scriptOf(promote, 'Verify the commit', job), { DEFAULT_BRANCH: 'main', ...env }, cwd, pathBin)

  it('hands on the deployed commit when it is the one checked out', async () => {
    const { cwd, onMain } = repository()
    for (const event of ['deployment_status', 'workflow_dispatch']) {
      const verified = await verify({ CHECKED_SHA: onMain, EVENT: event }, cwd)
      expect(verified.code, verified.output).toBe(0)
      expect(verified.outputs.sha).toBe(onMain)
    }
  })

  it('refuses a commit that is not given in full, or not the one checked out', async () => {
    const { cwd, onMain, offMain } = repository()
    const short = await verify({ CHECKED_SHA: onMain.slice(0, 7), EVENT: 'deployment_status' }, cwd)
    expect(short.code).toBe(1)
    expect(short.output).toContain('::error title=No commit to check::')
    const other = await verify({ CHECKED_SHA: offMain, EVENT: 'deployment_status' }, cwd)
    expect(other.code).toBe(1)
    expect(other.output).toContain('::error title=Wrong commit checked out::')
    expect(other.outputs.sha).toBeUndefined()
  })

  it('refuses, by hand, a commit that is not on the default branch', async () => {
    const { cwd, offMain } = repository()
    execFileSync('git', ['checkout', '--quiet', offMain], { cwd })
    const refused = await verify({ CHECKED_SHA: offMain, EVENT: 'workflow_dispatch' }, cwd)
    expect(refused.code).toBe(1)
    expect(refused.output).toContain('::error title=Not on the default branch::')
  })

  it('promotes only the commit that was checked, and only when the deployment names that same one', async () => {
    const { cwd, onMain, offMain } = repository()
    const same = await verify({ CHECKED_SHA: onMain, DEPLOYED_SHA: onMain }, cwd, 'promote')
    expect(same.code, same.output).toBe(0)
    const differs = await verify({ CHECKED_SHA: onMain, DEPLOYED_SHA: offMain }, cwd, 'promote')
    expect(differs.code).toBe(1)
    expect(differs.output).toContain('::error title=Not the commit that was checked::')
    // A conformance job that failed hands on no SHA at all.
    const none = await verify({ CHECKED_SHA: '', DEPLOYED_SHA: onMain }, cwd, 'promote')
    expect(none.code).toBe(1)
  })
})

describe('promote.yml waits for staging to answer', () => {
  // The bound shortened and the pause between attempts too: the same loop, still bounded.
  const waitScript = (attempts: number) =>
    scriptOf(promote, 'Wait for staging')
      .replace('seq 1 30', `seq 1 ${attempts}`)
      .replace('sleep 5', 'sleep 0.2')
  let gateway: ReturnType<typeof createServer> | undefined
  afterAll(() => gateway?.close())

  it('waits while the gateway answers 502, and goes on once staging answers anything else', async () => {
    let answered = 0
    // A gateway in front of a staging still rolling out: 502 twice, then the API's own 401 (no key sent).
    gateway = createServer((_request, response) => {
      answered += 1
      response.writeHead(answered <= 2 ? 502 : 401).end()
    })
    await new Promise<void>((resolve) => gateway?.listen(0, '127.0.0.1', resolve))
    const { port } = gateway.address() as AddressInfo
    const waited = await runStep(
      waitScript(10),
      { CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}/v1` },
      workspace(),
      pathBin,
    )
    expect(waited.code, waited.output).toBe(0)
    expect(waited.output).toContain('Staging answers (401) after 3 attempts.')
  })

  it('fails with an annotation when staging never answers', async () => {
    const url = `http://127.0.0.1:${await findFreePort()}/v1`
    const waited = await runStep(waitScript(2), { CONFORMANCE_BASE_URL: url }, workspace(), pathBin)
    expect(waited.code).toBe(1)
    expect(waited.output).toContain('::error title=Staging is not answering::')
  })
})

const pullRequestEnv = {
  GITHUB_WORKFLOW_REF: 'team/server/.github/workflows/contract.yml@refs/pull/42/merge',
  DEFAULT_BRANCH: 'main',
}

describe('the workflows fetch the report of the check before, and go on without one', () => {
  const listed = (calls: string[]) => calls.filter((call) => call.startsWith('run list'))
  const downloaded = (calls: string[]) => calls.filter((call) => call.startsWith('run download'))

  it('promote.yml: on the first run there is none, and the command is given a path that does not exist', async () => {
    const cwd = workspace()
    const fetched = await fetchPrevious(promote, { runs: { '': [] } }, cwd, {
      GITHUB_WORKFLOW_REF: promoteRef,
    })
    expect(fetched.run.code, fetched.run.output).toBe(0)
    expect(fetched.run.output).toContain("No earlier run's report to compare with")
    expect(listed(fetched.calls)).toEqual([
      'run list --workflow promote.yml --status completed --limit 20 --json databaseId,conclusion',
    ])
    expect(downloaded(fetched.calls)).toEqual([])
    expect(existsSync(join(cwd, 'previous/conformance.json'))).toBe(false)
  })

  it('promote.yml: takes the newest run that reached a verdict and still has its report', async () => {
    const cwd = workspace()
    const fetched = await fetchPrevious(
      promote,
      {
        runs: {
          '': [
            { databaseId: 44, conclusion: 'skipped' },
            { databaseId: 43, conclusion: 'cancelled' },
            // Its artefact expired: the one before it is taken.
            { databaseId: 42, conclusion: 'success' },
            { databaseId: 41, conclusion: 'failure' },
          ],
        },
        artifacts: { 41: previousReport },
      },
      cwd,
      { GITHUB_WORKFLOW_REF: promoteRef },
    )
    expect(fetched.run.code, fetched.run.output).toBe(0)
    expect(downloaded(fetched.calls)).toEqual([
      'run download 42 --name conformance-exchanges --dir previous/run-42',
      'run download 41 --name conformance-exchanges --dir previous/run-41',
    ])
    expect(readFileSync(join(cwd, 'previous/conformance.json'), 'utf8')).toBe(previousReport)
    expect(fetched.run.output).toContain('The reports compare with run 41.')
    // The file is untrusted: the step never prints it.
    expect(fetched.run.output).not.toContain('staging.example')
  })

  it('promote.yml: a failing gh (GitHub down, a token that may not read) leaves no file and does not fail the step', async () => {
    const cwd = workspace()
    const fetched = await fetchPrevious(promote, { fail: true }, cwd, { GITHUB_WORKFLOW_REF: promoteRef })
    expect(fetched.run.code, fetched.run.output).toBe(0)
    expect(fetched.run.output).toContain('HTTP 502')
    expect(existsSync(join(cwd, 'previous/conformance.json'))).toBe(false)
  })

  it('pull-request.yml: the base branch’s pushes first, then the default branch’s, never a pull request’s run', async () => {
    const cwd = workspace()
    const fetched = await fetchPrevious(
      pullRequest,
      {
        runs: { release: [], main: [{ databaseId: 7, conclusion: 'failure' }] },
        artifacts: { 7: previousReport },
      },
      cwd,
      { ...pullRequestEnv, BASE_BRANCH: 'release' },
    )
    expect(fetched.run.code, fetched.run.output).toBe(0)
    expect(listed(fetched.calls)).toEqual([
      'run list --workflow contract.yml --branch release --event push --status completed --limit 10 --json databaseId,conclusion',
      'run list --workflow contract.yml --branch main --event push --status completed --limit 10 --json databaseId,conclusion',
    ])
    expect(readFileSync(join(cwd, 'previous/conformance.json'), 'utf8')).toBe(previousReport)
    expect(fetched.run.output).toContain('The reports compare with run 7 on main.')
  })

  it('pull-request.yml: asks once when the base is the default branch, and a failing gh does not fail the step', async () => {
    const cwd = workspace()
    const fetched = await fetchPrevious(pullRequest, { fail: true }, cwd, {
      ...pullRequestEnv,
      BASE_BRANCH: 'main',
    })
    expect(fetched.run.code, fetched.run.output).toBe(0)
    expect(listed(fetched.calls)).toHaveLength(1)
    expect(existsSync(join(cwd, 'previous/conformance.json'))).toBe(false)
  })

  it('gives the command the fetched path, and gh a token that may read runs and nothing more', () => {
    for (const [workflow, step] of [
      [promote, 'conformance'],
      [pullRequest, 'Check your server against the contract'],
    ] as const) {
      const call = commandLines(scriptOf(workflow, step)).find((words) => words[0] === bin)
      expect(call?.slice(1)).toEqual(['--previous', 'previous/conformance.json', pactArgs])
      expect(workflow.jobs.conformance?.permissions).toEqual({ contents: 'read', actions: 'read' })
      const steps = workflow.jobs.conformance?.steps ?? []
      const at = (name: string) => steps.findIndex((each) => each.id === name || each.name === name)
      expect(at('Fetch the previous report')).toBeGreaterThan(-1)
      expect(at('Fetch the previous report')).toBeLessThan(at(step))
      // The token is given to the fetching step only.
      const fetch = stepOf(workflow, 'Fetch the previous report')
      expect(fetch.env?.GH_TOKEN).toBe(expression('github.token'))
      expect(JSON.stringify(workflow.jobs.conformance?.env ?? {})).not.toContain('token')
    }
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
    // The last check of the default branch, the pull request's base, left its report.
    const fetched = await fetchPrevious(
      pullRequest,
      { runs: { main: [{ databaseId: 7, conclusion: 'success' }] }, artifacts: { 7: previousReport } },
      cwd,
      { ...pullRequestEnv, BASE_BRANCH: 'main' },
    )
    expect(fetched.run.code, fetched.run.output).toBe(0)
    // The team's server (here our mock) starts two seconds after the wait begins.
    const waiting = runStep(scriptOf(pullRequest, 'Wait for your server'), env, cwd, pathBin)
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    server = await serveHttp(createMockApi({ apiKeys: ['contract-check-key'] }).handle, {
      port,
      host: '127.0.0.1',
    })
    const waited = await waiting
    expect(waited.code, waited.output).toBe(0)
    expect(waited.output).toMatch(/The server answers after \d+ s\./)

    const checked = await runStep(
      scriptOf(pullRequest, 'Check your server against the contract'),
      env,
      cwd,
      pathBin,
    )
    expect(checked.code, checked.output).toBe(0)
    expect(checked.output).toContain('Options from animal-store.config.yaml')
    expect(checked.summary).toContain('## Animal Store conformance: ✅ conforms')
    expect(existsSync(join(cwd, 'reports/junit.xml'))).toBe(true)

    // The comment job posts what this run wrote, what changed since the base branch's check among it.
    const posted = await postComment(cwd, [])
    expect(posted.run.code, posted.run.output).toBe(0)
    expect(posted.body).toContain('## Animal Store conformance: ✅ conforms')
    expect(posted.body).toContain(
      '### Animal Store conformance since the previous run: 0 new, 1 fixed, 0 still open',
    )
  }, 180_000)

  it('fails the wait with an annotation when nothing answers', async () => {
    const port = await findFreePort()
    // The loop's 60 attempts, shortened: the same script with its bound lowered, still bounded.
    const script = scriptOf(pullRequest, 'Wait for your server').replace('seq 1 60', 'seq 1 2')
    const waited = await runStep(
      script,
      { CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}/v1` },
      workspace(),
      pathBin,
    )
    expect(waited.code).toBe(1)
    expect(waited.output).toContain('::error title=The server did not start::')
  }, 60_000)
})

interface Posted {
  run: Awaited<ReturnType<typeof runStep>>
  calls: string[]
  body: string
}

/** Runs the comment job's posting step in `cwd` (which holds reports/), with `gh` faked and the comments given. */
async function postComment(cwd: string, pages: unknown[][]): Promise<Posted> {
  const gh = fakeGh({ comments: pages })
  const run = await runStep(
    scriptOf(pullRequest, 'Post the summary on the pull request', 'comment'),
    {
      ...gh.env,
      GH_TOKEN: 'ghs_not-a-token',
      GH_REPO: 'team/server',
      PR_NUMBER: '42',
      RUN_URL: 'https://github.example/team/server/actions/runs/7',
    },
    cwd,
    gh.bin,
  )
  return { run, calls: gh.calls(), body: gh.body() }
}

describe('pull-request.yml posts the summary on the pull request, one comment edited on every run', () => {
  const marker = '<!-- animal-store-conformance -->'
  const withSummary = (text: string) => {
    const cwd = workspace()
    mkdirSync(join(cwd, 'reports'), { recursive: true })
    writeFileSync(join(cwd, 'reports/summary.md'), text)
    return cwd
  }
  const bot = { login: 'github-actions[bot]' }

  it('adds a comment, the marker first and a link to the run last, when it has posted none before', async () => {
    const cwd = withSummary(
      '## Animal Store conformance: ❌ does not conform\n\n### What changed\n- new: one\n',
    )
    const posted = await postComment(cwd, [[{ id: 5, user: { login: 'a-reviewer' }, body: 'Looks good' }]])
    expect(posted.run.code, posted.run.output).toBe(0)
    expect(posted.calls).toEqual([
      'api repos/team/server/issues/42/comments --paginate --slurp',
      'api --method POST repos/team/server/issues/42/comments -F body=@comment.md',
    ])
    expect(posted.body).toBe(
      `${marker}\n## Animal Store conformance: ❌ does not conform\n\n### What changed\n- new: one\n\n[The run](https://github.example/team/server/actions/runs/7)\n`,
    )
  })

  it('edits its own comment from an earlier run, found on any page, and leaves the others alone', async () => {
    const cwd = withSummary('## Animal Store conformance: ✅ conforms\n')
    const posted = await postComment(cwd, [
      [
        { id: 10, user: { login: 'a-reviewer' }, body: `${marker} quoted by a person` },
        { id: 11, user: bot, body: 'another workflow’s comment' },
      ],
      [{ id: 12, user: bot, body: `${marker}\n## Animal Store conformance: ❌ does not conform\n` }],
    ])
    expect(posted.run.code, posted.run.output).toBe(0)
    expect(posted.calls[1]).toBe(
      'api --method PATCH repos/team/server/issues/comments/12 -F body=@comment.md',
    )
    expect(posted.calls).toHaveLength(2)
    expect(posted.run.output).toContain('Updated the comment 12 on pull request 42.')
  })

  it('says the check wrote no summary when the run never got that far', async () => {
    const posted = await postComment(workspace(), [[]])
    expect(posted.run.code, posted.run.output).toBe(0)
    expect(posted.body).toContain('The contract check wrote no summary')
  })

  it('cuts a summary longer than a comment may be, and says where the whole one is', async () => {
    const posted = await postComment(withSummary(`${'x'.repeat(99)}\n`.repeat(1_000)), [[]])
    expect(posted.run.code, posted.run.output).toBe(0)
    expect(posted.body.length).toBeLessThan(65_536)
    expect(posted.body).toContain('…cut here: the whole summary is in the run.')
  })
})

describe("the workflows replay the frontend's recordings (docs/pact.md), and go on without them", () => {
  const fetchStep = "Fetch the consumers' recordings"
  const fetchRecordings = async (setup: FakeGhSetup, env: Record<string, string>) => {
    const cwd = workspace()
    const gh = fakeGh(setup)
    const run = await runStep(
      scriptOf(promote, fetchStep),
      { ...gh.env, GH_TOKEN: 'ghs_not-a-token', GH_REPO: 'team/server', DEFAULT_BRANCH: 'main', ...env },
      cwd,
      gh.bin,
    )
    return { run, cwd, calls: gh.calls() }
  }
  const recording = () => {
    const api = createMockApi({ apiKeys: ['k'], pets: 3, record: { consumer: 'web-app' } })
    api.handle({
      method: 'GET',
      path: '/v1/pets',
      query: 'status=available',
      headers: { authorization: 'Bearer k' },
    })
    return JSON.stringify(api.recorder?.pact())
  }

  it('fetches them in both workflows with the same step, before the check, the token given to it alone', () => {
    for (const [workflow, check] of [
      [promote, 'conformance'],
      [pullRequest, 'Check your server against the contract'],
    ] as const) {
      expect(scriptOf(workflow, fetchStep)).toBe(scriptOf(promote, fetchStep))
      const steps = workflow.jobs.conformance?.steps ?? []
      const at = (name: string) => steps.findIndex((each) => each.id === name || each.name === name)
      expect(at(fetchStep)).toBeGreaterThan(-1)
      expect(at(fetchStep)).toBeLessThan(at(check))
      expect(stepOf(workflow, fetchStep).env?.GH_TOKEN).toBe(expression('github.token'))
      expect(stepOf(workflow, fetchStep).env?.FRONTEND_WORKFLOW).toBe(expression('vars.FRONTEND_WORKFLOW'))
    }
  })

  it('takes the Pact files of the frontend workflow’s newest successful push to the default branch', async () => {
    const fetched = await fetchRecordings(
      {
        runs: { main: [{ databaseId: 41, conclusion: 'success' }] },
        artifactFiles: { 41: { 'web-app-animal-store.json': recording() } },
      },
      { FRONTEND_WORKFLOW: 'frontend.yml' },
    )
    expect(fetched.run.code, fetched.run.output).toBe(0)
    expect(fetched.calls[0]).toContain(
      'run list --workflow frontend.yml --branch main --event push --status success',
    )
    expect(existsSync(join(fetched.cwd, 'pacts/web-app-animal-store.json'))).toBe(true)
    expect(fetched.run.output).toContain('Replaying the consumers’ recordings of run 41.'.replace('’', "'"))
  })

  it('goes on with the contract alone without the variable, without such a run, or when gh fails', async () => {
    const unset = await fetchRecordings({}, { FRONTEND_WORKFLOW: '' })
    expect(unset.run.code).toBe(0)
    expect(unset.calls).toEqual([])
    for (const setup of [{ runs: { main: [] } }, { fail: true }]) {
      const none = await fetchRecordings(setup, { FRONTEND_WORKFLOW: 'frontend.yml' })
      expect(none.run.code, none.run.output).toBe(0)
      expect(none.run.output).toContain("No consumer's recording to replay")
    }
  })

  it('replays a fetched recording in the check step: one --pact per file', async () => {
    const http = await serveHttp(createMockApi({ apiKeys: ['replay-key-5'] }).handle, {
      port: 0,
      host: '127.0.0.1',
    })
    try {
      const cwd = workspace()
      mkdirSync(join(cwd, 'pacts'))
      writeFileSync(join(cwd, 'pacts/web-app-animal-store.json'), recording())
      const checked = await runStep(
        scriptOf(promote, 'conformance'),
        { CONFORMANCE_BASE_URL: `${http.origin}/v1`, CONFORMANCE_API_KEY: 'replay-key-5' },
        cwd,
        pathBin,
      )
      expect(checked.outputs['exit-code'], checked.output).toBe('0')
      const report = JSON.parse(readFileSync(join(cwd, 'reports/conformance.json'), 'utf8'))
      expect(
        report.checks.filter((check: { group: string }) => check.group === 'consumer web-app'),
      ).toHaveLength(1)
    } finally {
      await http.close()
    }
  }, 120_000)
})

describe('pull-request.yml diffs the contract against the base branch, and lets a breaking change through only by label', () => {
  const step = 'Diff the contract against the base branch'
  const script = () => scriptOf(pullRequest, step, 'contract-diff')
  /** A repository whose main (as origin/main) holds the kit's contract, and whose work tree holds `head`. */
  const repositoryWith = (head: (document: typeof contract.document) => void) => {
    const cwd = workspace()
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      }).trim()
    mkdirSync(join(cwd, 'contract'))
    // JSON is YAML: the command reads either.
    writeFileSync(join(cwd, 'contract/openapi.yaml'), JSON.stringify(contract.document))
    git('init', '--quiet', '--initial-branch=main')
    git('add', '.')
    git('commit', '--quiet', '-m', 'base')
    git('update-ref', 'refs/remotes/origin/main', git('rev-parse', 'HEAD'))
    const edited = structuredClone(contract.document)
    head(edited)
    writeFileSync(join(cwd, 'contract/openapi.yaml'), JSON.stringify(edited))
    return cwd
  }
  const run = (cwd: string, labels: string[]) => {
    const gh = fakeGh({ labels })
    return runStep(
      script(),
      { ...gh.env, BASE_REF: 'main', GH_TOKEN: 'ghs_not-a-token', GH_REPO: 'team/server', PR_NUMBER: '7' },
      cwd,
      `${gh.bin}:${pathBin}`,
    )
  }
  const removeGetPet = (document: typeof contract.document) => {
    delete (document.paths as Record<string, unknown>)['/pets/{petId}']
  }

  it('runs only on pull requests, with a token that may read the code and the labels, and nothing more', () => {
    const job = pullRequest.jobs['contract-diff'] as Job
    expect(job.if).toBe("github.event_name == 'pull_request'")
    expect(job.permissions).toEqual({ contents: 'read', 'pull-requests': 'read' })
  })

  it('passes a pull request that leaves the contract as it was, and writes the diff to the step summary', async () => {
    const checked = await run(
      repositoryWith(() => {}),
      [],
    )
    expect(checked.code, checked.output).toBe(0)
    expect(checked.summary).toContain('## Contract diff: passes')
  }, 60_000)

  it('fails a breaking change with the changes in the summary, and lets it through with the label', async () => {
    const cwd = repositoryWith(removeGetPet)
    const refused = await run(cwd, ['documentation'])
    expect(refused.code, refused.output).toBe(1)
    expect(refused.output).toContain('::error title=The contract change breaks its users::')
    expect(refused.summary).toContain('### Breaking changes')
    const accepted = await run(cwd, ['breaking-contract-change'])
    expect(accepted.code, accepted.output).toBe(0)
    expect(accepted.output).toContain('::notice title=Breaking contract change accepted::')
  }, 60_000)
})
