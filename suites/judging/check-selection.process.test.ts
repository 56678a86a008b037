import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { brokenServerKey, brokenServers } from '../proof/broken-servers.ts'
import { runConformanceCommand as conformance } from '../proof/conformance-command.ts'
import { listRules } from './rules.ts'

// Choosing checks through the command users run, against a server whose one defect is an ignored limit.
const env = { CONFORMANCE_API_KEY: brokenServerKey }
const defect = 'limit is ignored'

describe('--checks, --exclude-checks and --list-checks', () => {
  let broken: Awaited<ReturnType<typeof serveHttp>>
  beforeAll(async () => {
    const server = brokenServers.find((one) => one.defect === defect)
    if (!server) throw new Error(`The broken server "${defect}" is gone; pick another with one finding.`)
    broken = await serveHttp(server.build(), { port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await broken?.close()
  })

  it('leaves an excluded rule unjudged: the run passes, and the checks that judged it are skipped, not passed', async () => {
    // One seed for both runs: the random sequences must send the same requests, or a check that met the
    // defect in one run may not meet it in the other and pass there, excluded rule or not.
    const seed = ['--seed', '7']
    const judged = await conformance(['--base-url', `${broken.origin}/v1`, ...seed], { env })
    expect(judged.code, judged.output).toBe(1)
    // An ignored limit is found at its root (limit), and, as the run's requests fall, also as the answers
    // to limit=101 the suite's policy asks to be refused: both rules are excluded.
    expect(judged.report?.findings.map((finding) => finding.rule)).toContain('limit')
    const found = ['limit', 'invalid-not-refused']
    const failed = judged.report?.checks.filter((check) => check.outcome === 'failed') ?? []
    expect(failed.length).toBeGreaterThan(0)

    const excluded = await conformance(
      ['--base-url', `${broken.origin}/v1`, ...seed, '--exclude-checks', found.join(',')],
      { env },
    )
    expect(excluded.code, excluded.output).toBe(0)
    expect([...(excluded.report?.excludedRules ?? [])].sort()).toEqual([...found].sort())
    expect(excluded.report?.findings).toEqual([])
    for (const check of failed) {
      const now = excluded.report?.checks.find((one) => one.group === check.group && one.name === check.name)
      expect(now?.outcome, check.name).toBe('skipped')
      expect(now?.message).toContain('excluded: it judged')
    }
    expect(excluded.output).toContain('CONFORMS (with 2 checks excluded)')
    const junit = readFileSync(join(excluded.reportDir, 'junit.xml'), 'utf8')
    for (const rule of found)
      expect(junit).toContain(`excluded with --checks / --exclude-checks: ${rule} was not judged`)
  }, 240_000)

  it('lists every rule with --list-checks, and refuses an unknown one before any request', async () => {
    const listed = await conformance(['--list-checks'])
    expect(listed.code).toBe(0)
    for (const rule of listRules()) expect(listed.output).toContain(rule.id)
    const unknown = await conformance(['--base-url', `${broken.origin}/v1`, '--exclude-checks', 'limits'], {
      env,
    })
    expect(unknown.code).toBe(2)
    expect(unknown.output).toContain('unknown check "limits"')
    // Refused before any request: the reports say so, and judge nothing.
    expect(unknown.report?.reason?.kind).toBe('options')
    expect(unknown.report?.checks).toEqual([])
  })
})
