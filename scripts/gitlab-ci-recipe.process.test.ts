import { existsSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { findFreePort } from '../mocks/local-port.ts'
import { scratchDir } from '../suites/proof/scratch-dir.ts'
import { loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'
import { previousReport } from './proof/fake-gh.ts'
import { binFolder, recipeFiles, runStep, workspace } from './proof/workflow-steps.ts'

// The GitLab CI recipe (docs/gitlab-ci/.gitlab-ci.yml, shown in docs/pipelines.md): validated against
// GitLab's CI schema, held to what promote.yml holds to, and its jobs' scripts run as GitLab's runner runs
// them (one bash -eo pipefail for all of a job's lines) against servers on 127.0.0.1.
const folder = fileURLToPath(new URL('../docs/gitlab-ci/', import.meta.url))
const text = readFileSync(join(folder, '.gitlab-ci.yml'), 'utf8')

interface Job {
  stage: string
  timeout: string
  script: string[]
  image?: string
  needs?: { job: string; artifacts: boolean }[]
  resource_group?: string
  environment?: { name: string; action?: string }
  when?: string
  artifacts?: {
    when: string
    expire_in: string
    access: string
    paths: string[]
    reports: { junit: string; dotenv: string }
  }
}
const pipeline = parse(text) as {
  workflow: { rules: { if: string }[] }
  default: { image: string; interruptible: boolean }
  stages: string[]
} & Record<string, Job>
const jobs = {
  deploy: pipeline['deploy-staging'],
  check: pipeline.conformance,
  promote: pipeline['promote-production'],
}

/** GitLab's published schema of .gitlab-ci.yml, vendored beside the recipe (its NOTICE says from where). */
function schemaValidator() {
  const schema = JSON.parse(readFileSync(join(folder, 'ci.schema.json'), 'utf8'))
  // Written for editors, not for Ajv's strict mode (markdownDescription, required keys declared elsewhere).
  return new Ajv({ allErrors: true, strict: false, formats: fullFormats }).compile(schema)
}

describe('the GitLab CI recipe is a pipeline GitLab accepts, hardened as promote.yml is', () => {
  const validate = schemaValidator()

  it('passes GitLab’s CI schema, which refuses a planted mistake', () => {
    expect(validate(parse(text)), JSON.stringify(validate.errors, null, 2)).toBe(true)
    expect(validate(parse(text.replace('junit: reports/junit.xml', 'junitt: reports/junit.xml')))).toBe(false)
  })

  it('runs on the default branch only, deploy then check then promote, and every job has a deadline', () => {
    expect(pipeline.workflow.rules).toEqual([{ if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' }])
    expect(pipeline.stages).toEqual(['deploy', 'check', 'promote'])
    for (const job of Object.values(jobs)) expect(job?.timeout).toMatch(/^\d+m$/)
    expect(pipeline.default.interruptible).toBe(false)
  })

  it('pins its image by digest', () => {
    expect(pipeline.default.image).toMatch(/^node:[\w.-]+@sha256:[0-9a-f]{64}$/)
    for (const job of Object.values(jobs)) expect(job?.image).toBeUndefined()
  })

  it('checks in the protected staging environment, one job on staging at a time, and deploys nothing from there', () => {
    expect(jobs.check?.environment).toEqual({ name: 'staging', action: 'verify' })
    expect(jobs.deploy?.environment?.name).toBe('staging')
    expect(jobs.check?.resource_group).toBe('staging')
    expect(jobs.deploy?.resource_group).toBe('staging')
  })

  it('installs from the lockfile with no install script run, and calls the command as it accepts', async () => {
    const lines = Object.values(jobs).flatMap((job) => job?.script ?? [])
    expect(lines.filter((line) => /\bnpm\b/.test(line))).toEqual([
      'npm ci --ignore-scripts --no-audit --no-fund',
    ])
    const calls = lines
      .flatMap((line) => line.split('\n'))
      .filter((line) => line.trim().startsWith('animal-store-conformance'))
    expect(calls).toEqual(['animal-store-conformance --previous previous/conformance.json'])
    // Options from the same config file as the GitHub workflows, read as the command reads it.
    const args = calls[0]?.split(' ').slice(1) ?? []
    const { values, configPath } = await loadCommand(conformanceCommand, args, {}, recipeFiles)
    expect(configPath).toBe('animal-store.config.yaml')
    expect(values['report-dir']).toBe('reports')
    expect(values.previous).toBe('previous/conformance.json')
  })

  it('gives JUnit to the merge request, and keeps the reports a week, for developers only', () => {
    expect(jobs.check?.artifacts).toMatchObject({
      when: 'always',
      expire_in: '7 days',
      access: 'developer',
      paths: ['reports/'],
      reports: { junit: 'reports/junit.xml', dotenv: 'reports/checked.env' },
    })
  })

  it('promotes in the protected production environment, after the check, by hand', () => {
    expect(jobs.promote?.environment?.name).toBe('production')
    expect(jobs.promote?.needs).toEqual([{ job: 'conformance', artifacts: true }])
    expect(jobs.promote?.when).toBe('manual')
  })
})

/** A job's script lines as the runner runs them: one shell; `npm ci` left out (it would fetch the registry). */
const scriptOf = (job: Job | undefined) =>
  (job?.script ?? []).filter((line) => !line.startsWith('npm ci')).join('\n')
const sha = 'c0ffee'.padEnd(40, '0')
let pathBin: string

beforeAll(() => {
  pathBin = binFolder()
})

interface Asked {
  url: string
  headers: IncomingHttpHeaders
}

/** A stand-in for GitLab's API on 127.0.0.1: it records each request and answers as `answer` says. */
async function fakeGitLab(answer: (url: string) => { status: number; body?: string; location?: string }) {
  const asked: Asked[] = []
  const server = createServer((request, response) => {
    asked.push({ url: request.url ?? '', headers: request.headers })
    const { status, body, location } = answer(request.url ?? '')
    response.writeHead(status, location ? { location } : {}).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { asked, origin, api: `${origin}/api/v4`, close: () => server.close() }
}
const artefactPath = '/api/v4/projects/17/jobs/artifacts/main/raw/reports/conformance.json?job=conformance'
/** The variables GitLab gives every job that the previous report's fetch reads. */
const gitlabEnv = (api: string) => ({
  CI_API_V4_URL: api,
  CI_PROJECT_ID: '17',
  CI_DEFAULT_BRANCH: 'main',
  CI_JOB_NAME: 'conformance',
  CI_JOB_TOKEN: 'glcbt-not-a-token',
})

describe('the conformance job, run as GitLab’s runner runs it', () => {
  let server: Awaited<ReturnType<typeof serveHttp>> | undefined
  let gitlab: Awaited<ReturnType<typeof fakeGitLab>> | undefined
  afterAll(async () => {
    await server?.close()
    gitlab?.close()
  })

  it('passes a conforming staging, records the commit it checked, and the promotion verifies it', async () => {
    server = await serveHttp(createMockApi({ apiKeys: ['staging-key'] }).handle, {
      port: 0,
      host: '127.0.0.1',
    })
    // The default branch's last passing check left its report.
    gitlab = await fakeGitLab((url) =>
      url === artefactPath ? { status: 200, body: previousReport } : { status: 404 },
    )
    const cwd = workspace()
    const env = {
      ...gitlabEnv(gitlab.api),
      CI_PROJECT_DIR: cwd,
      CI_COMMIT_SHA: sha,
      CONFORMANCE_BASE_URL: `${server.origin}/v1`,
      CONFORMANCE_API_KEY: 'staging-key',
    }
    const checked = await runStep(scriptOf(jobs.check), env, cwd, pathBin)
    expect(checked.code, checked.output).toBe(0)
    expect(gitlab.asked.map(({ url, headers }) => [url, headers['job-token']])).toEqual([
      [artefactPath, 'glcbt-not-a-token'],
    ])
    expect(checked.output).toContain('The reports compare with the last passing check on main.')
    expect(readFileSync(join(cwd, 'reports/summary.md'), 'utf8')).toContain(
      '### Animal Store conformance since the previous run: 0 new, 1 fixed, 0 still open',
    )
    expect(checked.output).toMatch(/Staging answers \(\d{3}\) after 1 attempts\./)
    expect(checked.output).toContain(`Staging conforms to the contract: ${sha} may be promoted.`)
    for (const report of ['junit.xml', 'summary.md', 'conformance.json', 'conformance.html'])
      expect(readFileSync(join(cwd, 'reports', report), 'utf8').length, report).toBeGreaterThan(0)
    const dotenv = readFileSync(join(cwd, jobs.check?.artifacts?.reports.dotenv ?? ''), 'utf8')
    expect(dotenv).toBe(`CHECKED_SHA=${sha}\n`)

    // GitLab gives the dotenv's variables to the job that needs this one.
    const checkedSha = dotenv.trim().split('=')[1] ?? ''
    const promoted = await runStep(
      scriptOf(jobs.promote),
      { CI_COMMIT_SHA: sha, CHECKED_SHA: checkedSha },
      cwd,
      pathBin,
    )
    expect(promoted.code, promoted.output).toBe(0)
    const other = await runStep(
      scriptOf(jobs.promote),
      { CI_COMMIT_SHA: 'f'.repeat(40), CHECKED_SHA: checkedSha },
      cwd,
      pathBin,
    )
    expect(other.code).toBe(1)
    expect(other.output).toContain('Not the commit that was checked')
  }, 180_000)
})

describe('the conformance job fetches the last passing check’s report, and goes on without one', () => {
  const fetchOnly = () => {
    const [line = ''] = (jobs.check?.script ?? []).filter((each) => each.includes('jobs/artifacts'))
    return line
  }
  const servers: { close: () => void }[] = []
  afterAll(() => {
    for (const one of servers) one.close()
  })
  const fetchWith = async (api: string) => {
    const cwd = scratchDir('gitlab-')
    const run = await runStep(fetchOnly(), gitlabEnv(api), cwd, pathBin)
    expect(run.code, run.output).toBe(0)
    return { run, file: join(cwd, 'previous/conformance.json') }
  }

  it('leaves no file on the first run, when GitLab answers 404', async () => {
    const gitlab = await fakeGitLab(() => ({ status: 404, body: '{"message":"404 Not found"}' }))
    servers.push(gitlab)
    const { run, file } = await fetchWith(gitlab.api)
    expect(run.output).toContain('No earlier report to compare with (GitLab answered 404).')
    expect(existsSync(file)).toBe(false)
  })

  it('sends a project access token instead of the job token when one is given (GitLab Free)', async () => {
    const gitlab = await fakeGitLab(() => ({ status: 200, body: previousReport }))
    servers.push(gitlab)
    const cwd = scratchDir('gitlab-')
    const env = { ...gitlabEnv(gitlab.api), PREVIOUS_REPORT_TOKEN: 'glpat-not-a-token' }
    const run = await runStep(fetchOnly(), env, cwd, pathBin)
    expect(run.code, run.output).toBe(0)
    const [asked] = gitlab.asked
    expect([asked?.headers['private-token'], asked?.headers['job-token']]).toEqual([
      'glpat-not-a-token',
      undefined,
    ])
    expect(readFileSync(join(cwd, 'previous/conformance.json'), 'utf8')).toBe(previousReport)
  })

  it('reads no more than 16 MiB and a chunk of a longer file (the command refuses one over 16 MiB)', async () => {
    const mib = 1024 * 1024
    const gitlab = await fakeGitLab(() => ({ status: 200, body: ' '.repeat(40 * mib) }))
    servers.push(gitlab)
    const { file } = await fetchWith(gitlab.api)
    const { size } = statSync(file)
    expect(size).toBeGreaterThan(16 * mib)
    expect(size).toBeLessThan(17 * mib)
  })

  it('goes on when GitLab cannot be reached', async () => {
    const { run, file } = await fetchWith(`http://127.0.0.1:${await findFreePort()}/api/v4`)
    expect(run.output).toContain('No earlier report to compare with (ECONNREFUSED).')
    expect(existsSync(file)).toBe(false)
  })

  it('follows a redirect to object storage without the job token, and prints none of the file', async () => {
    const storage = await fakeGitLab(() => ({ status: 200, body: previousReport }))
    const gitlab = await fakeGitLab(() => ({ status: 302, location: `${storage.origin}/signed?x=1` }))
    servers.push(storage, gitlab)
    const { run, file } = await fetchWith(gitlab.api)
    expect(readFileSync(file, 'utf8')).toBe(previousReport)
    expect(gitlab.asked[0]?.headers['job-token']).toBe('glcbt-not-a-token')
    expect(storage.asked.map(({ url, headers }) => [url, headers['job-token']])).toEqual([
      ['/signed?x=1', undefined],
    ])
    expect(run.output).not.toContain('staging.example')
  })
})

describe('the conformance job tells its exits apart, with the command faked', () => {
  // The command's exits without a run: it writes what a real run writes for them, then exits.
  const fakeCommand = (code: number, json: unknown) =>
    binFolder({
      'animal-store-conformance': `#!/bin/sh\nmkdir -p reports\nprintf '%s' '${JSON.stringify(json)}' > reports/conformance.json\nexit ${code}\n`,
    })
  let staging: ReturnType<typeof createServer> | undefined
  let url = ''
  beforeAll(async () => {
    staging = createServer((_request, response) => response.writeHead(401).end())
    await new Promise<void>((resolve) => staging?.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(staging.address() as AddressInfo).port}/v1`
  })
  afterAll(() => staging?.close())

  const check = (bin: string) => {
    const cwd = workspace()
    return runStep(
      scriptOf(jobs.check),
      { CI_PROJECT_DIR: cwd, CI_COMMIT_SHA: sha, CONFORMANCE_BASE_URL: url },
      cwd,
      bin,
    )
  }

  it('fails on exit 1 as "breaks the contract", recording no commit to promote', async () => {
    const checked = await check(fakeCommand(1, { findings: [] }))
    expect(checked.code).toBe(1)
    expect(checked.output).toContain('Staging breaks the contract')
    expect(() => readFileSync(join(checked.cwd, 'reports/checked.env'))).toThrow()
  })

  it('fails on exit 2 quoting the reason conformance.json gives, on one line', async () => {
    const reason = {
      kind: 'unreachable',
      message: 'Nothing answered at staging (ECONNREFUSED).\n\u001b[2Jcleared',
      advice: 'Check the base URL.',
    }
    const checked = await check(fakeCommand(2, { reason }))
    expect(checked.code).toBe(1)
    expect(checked.output).toContain(
      'Staging could not be checked: Nothing answered at staging (ECONNREFUSED). [2Jcleared Check the base URL. (unreachable)',
    )
    expect(checked.output).not.toContain('\u001b')
  })

  it('fails on exit 2 with the general causes when the run wrote no reason', async () => {
    const checked = await check(fakeCommand(2, {}))
    expect(checked.code).toBe(1)
    expect(checked.output).toContain('Staging could not be checked: not a verdict on staging')
  })
})

describe('the conformance job waits for staging', () => {
  const waitOnly = (attempts: number) => {
    const [wait = ''] = (jobs.check?.script ?? []).filter((line) => line.includes('seq 1 30'))
    return wait
      .replace('seq 1 30', `seq 1 ${attempts}`)
      .replace('"$attempt" = 30', `"$attempt" = ${attempts}`)
      .replace('sleep 5', 'sleep 0.2')
  }
  let gateway: ReturnType<typeof createServer> | undefined
  afterAll(() => gateway?.close())

  it('waits while the gateway answers 503, and goes on once staging answers anything else', async () => {
    let answered = 0
    gateway = createServer((_request, response) => {
      answered += 1
      response.writeHead(answered <= 2 ? 503 : 200).end()
    })
    await new Promise<void>((resolve) => gateway?.listen(0, '127.0.0.1', resolve))
    const { port } = gateway.address() as AddressInfo
    const cwd = scratchDir('gitlab-')
    const waited = await runStep(
      waitOnly(10),
      { CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}/v1` },
      cwd,
      pathBin,
    )
    expect(waited.code, waited.output).toBe(0)
    expect(waited.output).toContain('Staging answers (200) after 3 attempts.')
  })

  it('fails when nothing answers within its attempts', async () => {
    const cwd = scratchDir('gitlab-')
    const url = `http://127.0.0.1:${await findFreePort()}/v1`
    const waited = await runStep(waitOnly(2), { CONFORMANCE_BASE_URL: url }, cwd, pathBin)
    expect(waited.code).toBe(1)
    expect(waited.output).toContain('Staging is not answering')
  })
})
