import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { findFreePort } from '../mocks/local-port.ts'
import { loadCommand } from './cli/command-options.ts'
import { conformanceCommand } from './conformance-options.ts'
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
      .filter((line) => line.trim() === 'animal-store-conformance')
    expect(calls).toHaveLength(1)
    // Options from the same config file as the GitHub workflows, read as the command reads it.
    const { values, configPath } = await loadCommand(conformanceCommand, [], {}, recipeFiles)
    expect(configPath).toBe('animal-store.config.yaml')
    expect(values['report-dir']).toBe('reports')
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

describe('the conformance job, run as GitLab’s runner runs it', () => {
  let server: Awaited<ReturnType<typeof serveHttp>> | undefined
  afterAll(async () => {
    await server?.close()
  })

  it('passes a conforming staging, records the commit it checked, and the promotion verifies it', async () => {
    server = await serveHttp(createMockApi({ apiKeys: ['staging-key'] }).handle, {
      port: 0,
      host: '127.0.0.1',
    })
    const cwd = workspace()
    const env = {
      CI_PROJECT_DIR: cwd,
      CI_COMMIT_SHA: sha,
      CONFORMANCE_BASE_URL: `${server.origin}/v1`,
      CONFORMANCE_API_KEY: 'staging-key',
    }
    const checked = await runStep(scriptOf(jobs.check), env, cwd, pathBin)
    expect(checked.code, checked.output).toBe(0)
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
    const cwd = mkdtempSync(join(tmpdir(), 'gitlab-'))
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
    const cwd = mkdtempSync(join(tmpdir(), 'gitlab-'))
    const url = `http://127.0.0.1:${await findFreePort()}/v1`
    const waited = await runStep(waitOnly(2), { CONFORMANCE_BASE_URL: url }, cwd, pathBin)
    expect(waited.code).toBe(1)
    expect(waited.output).toContain('Staging is not answering')
  })
})
