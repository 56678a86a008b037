// Every report format, from one judged report: selection and baseline applied, then secrets redacted.

import type { Secrets } from '../output/index.ts'
import { redactionNote } from '../output/index.ts'
import type { Baseline, ConformanceReport, MissingPreviousRun, PreviousRun } from '../reporting/index.ts'
import {
  toConsoleText,
  toHtml,
  toJunitXml,
  toMarkdown,
  withBaseline,
  withPreviousRun,
} from '../reporting/index.ts'

export interface RenderedReports {
  report: ConformanceReport
  /** JSON, Markdown (also appended to $GITHUB_STEP_SUMMARY), JUnit and HTML, and the console's summary. */
  texts: { json: string; html: string; markdown: string; junit: string; console: string }
}

/**
 * How a judged report becomes what is written: rules left out are listed, the baseline decides which
 * findings still fail, and every secret is redacted before any format sees the report.
 */
export function reportRenderer(
  excluded: readonly string[],
  baseline: Baseline | undefined,
  secrets: Secrets,
  previous?: PreviousRun | MissingPreviousRun,
): (judged: ConformanceReport) => RenderedReports {
  return (judged) => {
    const selected = excluded.length > 0 ? { ...judged, excludedRules: [...excluded] } : judged
    const accepted = baseline ? withBaseline(selected, baseline, new Date()) : selected
    // After the baseline, so accepted findings keep their mark; before redaction, which covers it too.
    return renderReports(redactReport(previous ? withPreviousRun(accepted, previous) : accepted, secrets))
  }
}

/**
 * The report with every secret in it redacted, and a note saying where, once: every format is written from
 * this copy, so none has to know about secrets. The verdict was reached before, on what the server sent.
 */
function redactReport(report: ConformanceReport, secrets: Secrets): ConformanceReport {
  const paths: string[] = []
  const redacted = secrets.redactDeep(report, (path) => paths.push(path))
  const note = redactionNote(paths)
  return note ? { ...redacted, notes: [...redacted.notes, note] } : redacted
}

/** Every format, from the same (redacted) report. */
function renderReports(report: ConformanceReport): RenderedReports {
  return {
    report,
    texts: {
      json: `${JSON.stringify(report, null, 2)}\n`,
      html: toHtml(report),
      markdown: toMarkdown(report),
      junit: toJunitXml(report),
      console: toConsoleText(report),
    },
  }
}
