import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createOutput, redactionNote, writeReportFiles } from './output-boundary.ts'
import { redactedMarker, Secrets } from './secrets.ts'
import { workflowCommands } from './workflow-commands.ts'

const apiKey = 'k-9f8e7d6c5b'
const capture = () => {
  const written = { stdout: '', stderr: '' }
  const output = createOutput(Secrets.forRun({ apiKey, baseUrl: 'http://127.0.0.1/v1' }), {
    stdout: (text) => {
      written.stdout += text
    },
    stderr: (text) => {
      written.stderr += text
    },
  })
  return { output, written }
}

describe('the output boundary', () => {
  it('rewrites the status line with its own cursor control, the text redacted and inert', () => {
    const { output, written } = capture()
    output.status(`3/40 checks ${apiKey} \x1b]0;title\x07`)
    output.status('')
    expect(written.stderr).toBe(`\r\x1b[2K3/40 checks ${redactedMarker} \\x1b]0;title\\x07\r\x1b[2K`)
  })

  it('redacts and neutralises every console line', () => {
    const { output, written } = capture()
    output.out(`echo ${apiKey}\n::add-mask::x \x1b[2J`)
    output.err(`##[group]${apiKey.toUpperCase()}`)
    expect(written.stdout).toBe(`echo ${redactedMarker}\n\\x3a:add-mask::x \\x1b[2J\n`)
    expect(written.stderr).toBe(`#\\x23[group]${redactedMarker}\n`)
  })

  it('gives a library that writes on its own a stream through the same writer, whole lines at a time', async () => {
    const { output, written } = capture()
    const stream = output.stream('stderr')
    stream.write(`half a line ${apiKey.slice(0, 6)}`)
    stream.write(`${apiKey.slice(6)}\n::error::x`)
    await new Promise<void>((done) => stream.end(done))
    expect(written.stderr).toBe(`half a line ${redactedMarker}\n\\x3a:error::x\n`)
    expect(workflowCommands(written.stderr)).toEqual([])
  })

  it('writes every report file and the step summary through its sink', () => {
    const { output } = capture()
    const dir = mkdtempSync(join(tmpdir(), 'boundary-'))
    const stepSummary = join(dir, 'step.md')
    writeFileSync(stepSummary, '# earlier\n')
    const hostile = `${apiKey} \x1b]0;t\x07 ##[group] \u202e`
    writeReportFiles(
      output,
      dir,
      {
        json: JSON.stringify({ m: hostile }),
        html: `<p>${hostile}</p>`,
        markdown: `- ${hostile}\n`,
        junit: `<x a="${hostile}"/>`,
      },
      stepSummary,
    )
    for (const name of ['conformance.json', 'conformance.html', 'summary.md', 'junit.xml', 'step.md']) {
      const text = readFileSync(join(dir, name), 'utf8')
      expect(text, name).not.toContain(apiKey)
      expect(text, name).not.toContain('\x1b')
      expect(text, name).not.toContain('\u202e')
      expect(workflowCommands(text), name).toEqual([])
    }
    expect(JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).m).toBe(
      `${redactedMarker} \x1b]0;t\x07 ##[group] \u202e`,
    )
    expect(readFileSync(stepSummary, 'utf8')).toMatch(/^# earlier\n- /)
  })

  it('says once where secrets were redacted, or nothing when none were', () => {
    expect(redactionNote([])).toBeUndefined()
    expect(redactionNote(['findings.0.example', 'findings.0.example', 'checks.3.message'])).toMatch(
      /Found in: finding #1 \(example\); check results \(message\)\.$/,
    )
  })

  // One writer per sink: the run's modules build strings and hand them to the boundary, never to a sink.
  it('is the only thing in the conformance run that writes to a console or a file', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url))
    const modules = [
      'suites/run-conformance.ts',
      'suites/run/vitest-reporter.ts',
      'suites/reporting/report-formats.ts',
      'suites/reporting/report-html.ts',
      'scripts/conformance.ts',
      'scripts/conformance-run.ts',
      'scripts/conformance-watch.ts',
      'scripts/conformance-stopped.ts',
    ]
    // Code only: a comment may show how a caller writes a report.
    const code = (module: string) =>
      readFileSync(join(root, module), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
    for (const module of modules)
      expect(code(module), module).not.toMatch(
        /console\.|process\.(stdout|stderr)|writeFileSync|appendFileSync|createWriteStream|fs\.write/,
      )
  })
})
