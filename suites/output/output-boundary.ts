// The one way out of a run: console, report files and step summary, each redacted then neutralised.
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import {
  defuseWorkflowCommands,
  forConsole,
  forJsonText,
  visibleControls,
  xmlCharacters,
} from './neutralise.ts'
import { redactedMarker, type Secrets } from './secrets.ts'

/**
 * The one way out of a conformance run. Every byte the run writes goes through here: the console (stdout,
 * stderr, and what vitest itself prints), the report files and the GitHub step summary. Each sink has one
 * writer, private to this module, which redacts the run's secrets and then makes the text inert for that
 * sink; report formats only return strings. A new sink is a new entry in `fileSinks`, so it cannot skip
 * either step.
 */
export interface Output {
  readonly secrets: Secrets
  /** One line (or several) to stdout. */
  out(text: string): void
  /** One line (or several) to stderr. */
  err(text: string): void
  /**
   * Rewrites the one status line on stderr in place (the progress line), or clears it with ''. The
   * boundary writes the cursor control itself; the text is redacted and made inert like every line.
   */
  status(text: string): void
  /** A stream for a library that writes to stdout or stderr itself (vitest): the same writer, line by line. */
  stream(which: 'stdout' | 'stderr'): Writable
  /** Writes a report file, redacted and made inert for its kind. */
  writeFile(kind: FileKind, path: string, text: string): void
  /** Appends Markdown to the file GitHub names in `$GITHUB_STEP_SUMMARY`. */
  appendStepSummary(path: string, markdown: string): void
}

export type FileKind = 'markdown' | 'junit' | 'json' | 'html'

/**
 * What each file sink does after redaction. Markdown and HTML structure is the report format's (only it
 * knows what surrounds a server's text); here, what holds whatever the structure: no control or bidi
 * character acts in Markdown, XML or HTML, XML holds only XML 1.0 characters, JSON escapes what a terminal
 * acts on, and none holds a line a CI runner would run as a workflow command if a pipeline prints the file.
 */
const fileSinks: Record<FileKind, (text: string) => string> = {
  markdown: (text) => defuseWorkflowCommands(visibleControls(text), '\\x3a', '\\x23'),
  junit: (text) => defuseWorkflowCommands(xmlCharacters(visibleControls(text)), '&#58;', '&#35;'),
  json: (text) => defuseWorkflowCommands(forJsonText(text), '\\u003a', '\\u0023'),
  html: (text) => defuseWorkflowCommands(visibleControls(text), '&#58;', '&#35;'),
}

export interface ConsoleWriters {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

const processWriters: ConsoleWriters = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}

/**
 * The run's output, redacting `secrets` (which may still grow: a secret added later is redacted from then
 * on). `writers` are where console text finally goes (default: this process's stdout and stderr).
 * @example const output = createOutput(Secrets.forRun({ apiKey, baseUrl })); output.out('Checking...')
 */
export function createOutput(secrets: Secrets, writers: ConsoleWriters = processWriters): Output {
  const line = (text: string) => `${forConsole(secrets.redact(text))}\n`
  return {
    secrets,
    out: (text) => writers.stdout(line(text)),
    err: (text) => writers.stderr(line(text)),
    status: (text) => writers.stderr(`\r\x1b[2K${forConsole(secrets.redact(text))}`),
    stream(which) {
      const write = which === 'stdout' ? writers.stdout : writers.stderr
      let pending = ''
      return new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          // Only the chunk is searched for a line end: what is pending holds none, and searching it again at
          // every chunk would make a long line written in small pieces quadratic.
          const text = chunk.toString()
          const end = text.lastIndexOf('\n')
          if (end < 0) pending += text
          else {
            write(line(pending + text.slice(0, end)))
            pending = text.slice(end + 1)
          }
          done()
        },
        final(done) {
          if (pending !== '') write(line(pending))
          pending = ''
          done()
        },
      })
    },
    writeFile(kind, path, text) {
      writeFileSync(path, fileSinks[kind](secrets.redact(text)))
    },
    appendStepSummary(path, markdown) {
      appendFileSync(path, fileSinks.markdown(secrets.redact(markdown)))
    },
  }
}

/** Report files by name, and the kind of sink each is. */
export const reportFiles = {
  json: ['conformance.json', 'json'],
  html: ['conformance.html', 'html'],
  markdown: ['summary.md', 'markdown'],
  junit: ['junit.xml', 'junit'],
} as const satisfies Record<string, readonly [string, FileKind]>

/** Writes the four report files into `dir`, and the Markdown to `$GITHUB_STEP_SUMMARY` when it is set. */
export function writeReportFiles(
  output: Output,
  dir: string,
  texts: Record<keyof typeof reportFiles, string>,
  stepSummary = process.env.GITHUB_STEP_SUMMARY,
): void {
  for (const [format, [name, kind]] of Object.entries(reportFiles))
    output.writeFile(kind, join(dir, name), texts[format as keyof typeof reportFiles])
  if (stepSummary) output.appendStepSummary(stepSummary, `${texts.markdown}\n`)
}

/**
 * The sentence a report carries once when secrets were redacted from it: what, by which marker, where.
 * `paths` are the report's fields that held one (`findings.0.example`).
 */
export function redactionNote(paths: readonly string[]): string | undefined {
  if (paths.length === 0) return undefined
  const places = [...new Set(paths.map(describePath))]
  const shown = places.slice(0, 8).join('; ')
  const more = places.length > 8 ? `; and ${places.length - 8} more places` : ''
  return `Secrets were redacted: the API key, the near-miss keys derived from it, base-URL credentials and the values of Authorization, Proxy-Authorization, Cookie and Set-Cookie headers are written as ${redactedMarker} in every output (console, summary.md, the step summary, junit.xml, conformance.json, conformance.html). Found in: ${shown}${more}.`
}

function describePath(path: string): string {
  const [section, index, field] = path.split('.')
  const number = Number(index) + 1
  if (section === 'findings') return `finding #${number}${field ? ` (${field})` : ''}`
  if (section === 'checks') return `check results (${field ?? 'message'})`
  if (section === 'target') return 'the base URL'
  return section ?? path
}
