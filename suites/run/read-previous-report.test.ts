import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Secrets } from '../output/index.ts'
import { reportFacts } from '../proof/report-facts.ts'
import { buildReport } from '../reporting/index.ts'
import { defaults } from '../run-defaults.ts'
import { checkOptions } from './check-options.ts'
import { maxPreviousReportBytes, readPreviousReport } from './read-previous-report.ts'
import { reportRenderer } from './render-reports.ts'

const dir = mkdtempSync(join(tmpdir(), 'previous-'))
const apiKey = 'Hd7kWq3zNp5m'
const facts = reportFacts({
  target: { baseUrl: 'http://127.0.0.1:1/v1', readOnly: false, viaPrism: false, seed: 1 },
  finishedAt: new Date('2026-01-01T00:00:01Z'),
  created: { count: 0, namePrefix: 'conformance-abc' },
})
/** A report with one finding, as a run writes it to conformance.json. */
function writeReport(name: string, where = 'query limit'): string {
  const report = buildReport(
    [
      {
        group: 'g',
        name: 'a',
        outcome: 'failed',
        violations: [{ rule: 'limit', where, operation: 'listPets', message: 'm', exchange: '' }],
        warnings: [],
        advice: [],
        notes: [],
      },
    ],
    facts,
  )
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(report))
  return path
}

describe('reading the --previous report', () => {
  it('takes a missing file for a first run, not an error', () => {
    const path = join(dir, 'never-written.json')
    expect(readPreviousReport(path)).toEqual({ path, missing: true })
  })

  const unusable = (path: string) => {
    const read = readPreviousReport(path)
    return 'unusable' in read ? read.unusable : undefined
  }

  it('refuses a folder, a file past the bound (unread) and bytes that are not UTF-8, saying what to do', () => {
    expect(unusable(dir)).toBe(
      `Cannot use the previous report ${dir}: it is not a file. Give --previous an earlier run's conformance.json, or leave it out.`,
    )
    const huge = join(dir, 'huge.json')
    writeFileSync(huge, '')
    // Sparse: the bound is checked before a byte is read.
    truncateSync(huge, maxPreviousReportBytes + 1)
    expect(unusable(huge)).toContain(`it holds ${maxPreviousReportBytes + 1} bytes, more than a report`)
    const latin1 = join(dir, 'latin1.json')
    writeFileSync(latin1, Buffer.from([0x7b, 0xe9, 0x7d]))
    expect(unusable(latin1)).toContain('it is not UTF-8 text.')
  })

  it('runs on when the file cannot be used, and every report says why nothing was compared', () => {
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"format": 7}')
    const checked = checkOptions(
      {
        baseUrl: 'http://127.0.0.1:1/v1',
        apiKey,
        reportDir: join(dir, 'reports'),
        previous: bad,
      },
      defaults,
    )
    if ('reason' in checked) throw new Error(checked.reason.message)
    const why = `The previous report cannot be used: ${bad}: was written by another version of this kit (report format 7; this one reads format 1). Run once without --previous and compare later runs with that run's conformance.json.`
    expect(checked.plan.previous).toEqual({ path: bad, missing: true, unusable: why })
    const secrets = new Secrets().addApiKey(apiKey)
    const { report, texts } = reportRenderer(
      [],
      undefined,
      secrets,
      checked.plan.previous,
    )(buildReport([], facts))
    expect(report.previous?.state).toBe('unusable')
    expect(texts.markdown).toContain('could not be used')
    expect(texts.markdown).toContain('was written by another version of this kit')
  })

  it('puts what the file holds through the redaction every report passes: this run’s key never shows', () => {
    const path = writeReport('echoed.json', `query limit echoed ${apiKey}`)
    const previous = readPreviousReport(path)
    if (typeof previous === 'string' || 'missing' in previous) throw new Error(String(previous))
    const secrets = new Secrets().addApiKey(apiKey)
    const { report, texts } = reportRenderer([], undefined, secrets, previous)(buildReport([], facts))
    expect(report.previous?.fixed.map((finding) => finding.where)).toEqual(['query limit echoed [redacted]'])
    for (const text of Object.values(texts)) expect(text).not.toContain(apiKey)
    expect(texts.markdown).toContain('`query limit echoed [redacted]`')
  })
})
