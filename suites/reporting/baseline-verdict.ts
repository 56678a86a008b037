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
  const known = new Map(outcome.known.map((entry) => [entry.id, entry]))
  const findings = report.findings.map((finding) => {
    const entry = known.get(finding.id)
    if (!entry) return finding
    const accepted = {
      baseline: baseline.path,
      reason: entry.reason,
      ...(entry.expires ? { expires: entry.expires } : {}),
    }
    return { ...finding, accepted }
  })
  const failing = findings.filter((finding) => !finding.accepted)
  const verdict = report.verdict === 'does-not-conform' && failing.length === 0 ? 'conforms' : report.verdict
  return { ...report, verdict, findings, baseline: outcome }
}
