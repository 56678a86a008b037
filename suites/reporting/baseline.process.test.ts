import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { brokenServerKey, brokenServers } from '../proof/broken-servers.ts'
import { runConformanceCommand as conformance } from '../proof/conformance-command.ts'
import type { BaselineOutcome } from './baseline-file.ts'

// A team accepts a known defect with a baseline and keeps gating on everything else: the command as a
// user runs it, against a server with one defect and against a correct one, over real sockets.
type Served = Awaited<ReturnType<typeof serveHttp>>
const env = { CONFORMANCE_API_KEY: brokenServerKey }
const defect = 'Error bodies lack code'

describe('--baseline and --write-baseline', () => {
  let broken: Served
  let correct: Served
  const dir = mkdtempSync(join(tmpdir(), 'baseline-'))
  const file = join(dir, 'baseline.json')
  beforeAll(async () => {
    const server = brokenServers.find((one) => one.defect === defect)
    if (!server) throw new Error(`The broken server "${defect}" is gone; pick another with one finding.`)
    ;[broken, correct] = await Promise.all([
      serveHttp(server.build(), { port: 0, host: '127.0.0.1' }),
      serveHttp(createMockApi({ apiKeys: [brokenServerKey] }).handle, { port: 0, host: '127.0.0.1' }),
    ])
  })
  afterAll(async () => {
    await Promise.all([broken?.close(), correct?.close()])
  })

  it('writes the findings, accepts them once each has a reason, and fails again once one expires', async () => {
    const first = await conformance(['--base-url', `${broken.origin}/v1`, '--write-baseline', file], { env })
    expect(first.code, first.output).toBe(1)
    const written = JSON.parse(readFileSync(file, 'utf8')) as { accepted: { id: string; reason: string }[] }
    expect(written.accepted.map((entry) => entry.id)).toEqual(
      first.report?.findings.map((finding) => finding.id),
    )
    expect(written.accepted.every((entry) => entry.reason === '')).toBe(true)

    // As written, with empty reasons, it is refused before any request: exit 2, saying what to fix.
    const unreasoned = await conformance(['--base-url', `${broken.origin}/v1`, '--baseline', file], { env })
    expect(unreasoned.code).toBe(2)
    expect(unreasoned.output).toContain('has no reason: say why it is accepted')
    expect(unreasoned.output).not.toContain('Usage:')
    expect(unreasoned.report?.reason?.kind).toBe('baseline')
    expect(unreasoned.report?.checks).toEqual([])

    const accepted = written.accepted.map((entry) => ({ ...entry, reason: 'PET-12: fix ships next sprint' }))
    writeFileSync(file, JSON.stringify({ accepted }))
    const known = await conformance(['--base-url', `${broken.origin}/v1`, '--baseline', file], { env })
    expect(known.code, known.output).toBe(0)
    const report = known.report as (typeof known.report & { baseline: BaselineOutcome }) | undefined
    expect(report?.findings.length).toBe(accepted.length)
    expect(report?.baseline.known.map((entry) => entry.id)).toEqual(accepted.map((entry) => entry.id))
    // Every format says so; the CI's test view shows it skipped with its reason, not failed.
    expect(known.output).toMatch(/CONFORMS \(\d+ findings? accepted by the baseline\)/)
    expect(known.output).toContain(
      `known, accepted in ${file}: ${accepted[0]?.id}: PET-12: fix ships next sprint`,
    )
    const junit = readFileSync(join(known.reportDir, 'junit.xml'), 'utf8')
    expect(junit).toMatch(/<testsuites [^>]*failures="0"/)
    expect(junit).toContain(`<skipped message="known finding ${accepted[0]?.id} `)
    const summary = readFileSync(join(known.reportDir, 'summary.md'), 'utf8')
    expect(summary).toContain('### Left out or accepted')
    // Marked accepted where each finding is listed: the table, the page, the data, the console.
    expect(summary).toMatch(/\| accepted `\(.*\): PET-12: fix ships next sprint` \|/)
    expect(readFileSync(join(known.reportDir, 'conformance.html'), 'utf8')).toContain(
      `accepted (${file}): PET-12: fix ships next sprint: reported, not failing the run.`,
    )
    expect(report?.findings.every((finding) => finding.accepted?.reason === accepted[0]?.reason)).toBe(true)
    expect(known.output).toContain(`○ #1 ${report?.findings[0]?.id}`)
    expect(known.output).toMatch(/: \d+ findings? \(\d+ accepted\), /)

    writeFileSync(
      file,
      JSON.stringify({ accepted: accepted.map((entry) => ({ ...entry, expires: '2020-01-31' })) }),
    )
    const expired = await conformance(['--base-url', `${broken.origin}/v1`, '--baseline', file], { env })
    expect(expired.code, expired.output).toBe(1)
    const expiredReport = expired.report as
      | (typeof expired.report & { baseline: BaselineOutcome })
      | undefined
    expect(expiredReport?.baseline.expired.map((entry) => entry.id)).toEqual(
      accepted.map((entry) => entry.id),
    )
  }, 240_000)

  it('lists the entries a correct server no longer matches as stale, and passes it', async () => {
    const stale = join(dir, 'stale.json')
    writeFileSync(stale, JSON.stringify({ accepted: [{ id: 'limit: query limit', reason: 'fixed since' }] }))
    const run = await conformance(['--base-url', `${correct.origin}/v1`, '--baseline', stale], { env })
    expect(run.code, run.output).toBe(0)
    const report = run.report as (typeof run.report & { baseline: BaselineOutcome }) | undefined
    expect(report?.baseline.stale).toEqual([{ id: 'limit: query limit', reason: 'fixed since' }])
    expect(run.output).toContain('stale, no finding matched it: limit: query limit: fixed since')
  }, 120_000)

  it('exits 2 for a baseline it cannot read, naming how to write one', async () => {
    const run = await conformance(
      ['--base-url', `${correct.origin}/v1`, '--baseline', join(dir, 'missing.json')],
      {
        env,
      },
    )
    expect(run.code).toBe(2)
    expect(run.output).toContain('Write one with --write-baseline')
  })
})
