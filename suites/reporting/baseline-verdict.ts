// Applies a baseline to a finished report: accepted findings stay listed but no longer fail the verdict.
import { applyBaseline, type Baseline } from './baseline-file.ts'
import type { ConformanceReport } from './conformance-report.ts'

/**
 * Applies a baseline to a finished report: accepted findings stay listed but no longer decide the
 * verdict; expired ones do again. An incomplete run stays incomplete: a baseline cannot judge what was
 * not checked.
 */
export function withBaseline(report: ConformanceReport, baseline: Baseline, today: Date): ConformanceReport {
  const outcome = applyBaseline(
    report.findings.map((finding) => finding.id),
    baseline,
    today,
  )
  const known = new Set(outcome.known.map((entry) => entry.id))
  const failing = report.findings.filter((finding) => !known.has(finding.id))
  const verdict = report.verdict === 'does-not-conform' && failing.length === 0 ? 'conforms' : report.verdict
  return { ...report, verdict, baseline: outcome }
}
