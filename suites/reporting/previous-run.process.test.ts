import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { runConformanceCommand as conformance } from '../proof/conformance-command.ts'
import { buildReport } from './conformance-report.ts'

// The command as a pipeline runs it on its second day: --previous names the first run's conformance.json
// (an artefact, so untrusted), and every report says what changed. One run, against the mock over a real
// socket; the comparison's cases are pinned in run-comparison.test.ts.
const apiKey = 'Zq8vLm2xPr4t'
const hostile = '<script>alert(1)</script> `|` ::warning::x'
// The command docs/conformance.md gives for cutting the section out of summary.md.
const cutComment =
  '/^<!-- animal-store-conformance previous-run:start -->$/,/^<!-- animal-store-conformance previous-run:end -->$/p'

describe('--previous', () => {
  let server: Awaited<ReturnType<typeof serveHttp>>
  const dir = mkdtempSync(join(tmpdir(), 'previous-run-'))
  const previous = join(dir, 'conformance.json')
  beforeAll(async () => {
    server = await serveHttp(createMockApi({ apiKeys: [apiKey] }).handle, { port: 0, host: '127.0.0.1' })
    // The previous run saw one defect the mock does not have, its words a server's hostile text.
    const report = buildReport(
      [
        {
          group: 'listPets',
          name: 'limit is refused past its maximum',
          outcome: 'failed',
          violations: [
            { rule: 'limit', where: hostile, operation: 'listPets', message: hostile, exchange: hostile },
          ],
          warnings: [],
          advice: [],
          notes: [],
        },
      ],
      {
        target: { baseUrl: `${server.origin}/v1`, readOnly: false, viaPrism: false, seed: 1 },
        startedAt: new Date('2026-11-01T10:00:00Z'),
        finishedAt: new Date('2026-11-01T10:00:05Z'),
        coverage: [],
        created: { count: 0, namePrefix: 'conformance-old' },
      },
    )
    writeFileSync(previous, JSON.stringify(report))
  })
  afterAll(async () => {
    await server?.close()
  })

  it('adds what changed to summary.md, conformance.json and the HTML, the previous file’s text defused', async () => {
    const run = await conformance(['--base-url', `${server.origin}/v1`, '--previous', previous], {
      env: { CONFORMANCE_API_KEY: apiKey },
    })
    expect(run.code, run.output).toBe(0)
    const fixed = run.report?.previous?.fixed ?? []
    expect(run.report?.previous).toMatchObject({ path: previous, state: 'compared', new: [], stillOpen: [] })
    expect(fixed.map((finding) => [finding.rule, finding.where])).toEqual([['limit', hostile]])
    expect(run.stdout).toContain('Since the previous run: 0 new, 1 fixed, 0 still open.')

    const summary = readFileSync(join(run.reportDir, 'summary.md'), 'utf8')
    expect(summary).toContain(
      '### Animal Store conformance since the previous run: 0 new, 1 fixed, 0 still open',
    )
    expect(summary).toContain(
      `Compared by finding id with the run of \`2026-11-01T10:00:00.000Z\` against \`${server.origin}/v1\` (it did not conform), read from \`${previous}\`. This run checked the same base URL.`,
    )
    // In a code span, where a tag is text: the span's delimiter is longer than any backtick run inside.
    expect(summary).toContain(`- \`${fixed[0]?.id}\` limit \`\`${hostile}\`\` on \`listPets\``)

    // What a workflow posts as the pull-request comment, cut out as docs/conformance.md shows: it stands alone.
    const comment = execFileSync('sed', ['-n', cutComment, join(run.reportDir, 'summary.md')], {
      encoding: 'utf8',
    })
    expect(comment.split('\n').slice(1, 2)).toEqual([
      '### Animal Store conformance since the previous run: 0 new, 1 fixed, 0 still open',
    ])
    expect(comment).toContain('**Fixed (1)**')
    expect(comment).not.toContain('### Coverage')
    expect(comment).not.toContain('](')

    const html = readFileSync(join(run.reportDir, 'conformance.html'), 'utf8')
    expect(html).toContain('<h2>Since the previous run: 0 new, 1 fixed, 0 still open</h2>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toContain('<script>')
  }, 120_000)
})
