import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node'
import type { CheckMeta } from './conformance-meta.ts'
import type { ConformanceTarget } from './target.ts'

export interface CheckReport {
  group: string
  name: string
  outcome: 'passed' | 'failed' | 'skipped'
  message?: string
  warnings: string[]
  exchanges: string[]
}

export interface ConformanceReport {
  target: { baseUrl: string; readOnly: boolean; viaPrism: boolean }
  finishedAt: string
  totals: { passed: number; failed: number; skipped: number; warnings: number }
  checks: CheckReport[]
  coverage: { pair: string; seen: boolean }[]
  warnings: string[]
}

/**
 * The suite's reporter: one progress line per operation as it finishes, then a summary a person can
 * act on (each failed check with the request sent and the response received), and the JSON and Markdown
 * reports (the Markdown also appended to $GITHUB_STEP_SUMMARY when set). JUnit is vitest's own reporter.
 */
export class ConformanceReporter implements Reporter {
  report: ConformanceReport | undefined
  private readonly target: ConformanceTarget
  private readonly reportDir: string
  private readonly print: (line: string) => void

  constructor(
    target: ConformanceTarget,
    reportDir: string,
    print: (line: string) => void = (line) => console.log(line),
  ) {
    this.target = target
    this.reportDir = reportDir
    this.print = print
  }

  onTestRunStart() {
    this.print(
      `Checking ${this.target.baseUrl} against the Animal Store contract${this.target.readOnly ? ' (read-only)' : ''}${this.target.prismUrl ? ', through Prism’s validating proxy' : ''}...`,
    )
  }

  onTestSuiteResult(suite: TestSuite) {
    const cases = [...suite.children.allTests()].map(toReport)
    const failed = cases.filter((check) => check.outcome === 'failed').length
    const skipped = cases.filter((check) => check.outcome === 'skipped').length
    const counts = [
      `${cases.length - failed - skipped} passed`,
      ...(failed ? [`${failed} failed`] : []),
      ...(skipped ? [`${skipped} skipped`] : []),
    ]
    this.print(`  ${failed ? '✗' : '✓'} ${suite.name.padEnd(16)} ${counts.join(', ')}`)
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>) {
    const cases = modules.flatMap((module) => [...module.children.allTests()])
    const checks = cases.map(toReport)
    const coverage =
      cases
        .map((testCase) => (testCase.meta().conformance as CheckMeta | undefined)?.coverage)
        .find(Boolean) ?? []
    const warnings = [...new Set(checks.flatMap((check) => check.warnings))]
    const count = (outcome: CheckReport['outcome']) =>
      checks.filter((check) => check.outcome === outcome).length
    const report: ConformanceReport = {
      target: {
        baseUrl: this.target.baseUrl,
        readOnly: this.target.readOnly,
        viaPrism: this.target.prismUrl !== undefined,
      },
      finishedAt: new Date().toISOString(),
      totals: {
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        warnings: warnings.length,
      },
      checks,
      coverage,
      warnings,
    }
    for (const error of errors) {
      report.checks.push({
        group: 'suite',
        name: 'the suite itself ran',
        outcome: 'failed',
        message: String((error as Error)?.stack ?? error),
        warnings: [],
        exchanges: [],
      })
      report.totals.failed++
    }
    this.report = report
    this.printSummary(report)
    mkdirSync(this.reportDir, { recursive: true })
    writeFileSync(join(this.reportDir, 'conformance.json'), `${JSON.stringify(report, null, 2)}\n`)
    const markdown = toMarkdown(report)
    writeFileSync(join(this.reportDir, 'summary.md'), markdown)
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown}\n`)
    this.print(`Reports: ${join(this.reportDir, 'junit.xml')}, conformance.json, summary.md`)
  }

  private printSummary(report: ConformanceReport) {
    for (const check of report.checks.filter((c) => c.outcome === 'failed')) {
      this.print(`\n✗ ${check.group} › ${check.name}\n${indent(check.message ?? '')}`)
    }
    if (report.warnings.length > 0) {
      this.print(`\nWarnings (the contract leaves these open; not failures):`)
      for (const warning of report.warnings) this.print(`  ! ${warning}`)
    }
    const { passed, failed, skipped } = report.totals
    this.print(
      `\n${failed === 0 ? 'CONFORMS' : 'DOES NOT CONFORM'}: ${passed} passed, ${failed} failed, ${skipped} skipped, ${report.warnings.length} warnings`,
    )
  }
}

function toReport(testCase: TestCase): CheckReport {
  const meta = testCase.meta().conformance as CheckMeta | undefined
  const result = testCase.result()
  const outcome = result.state === 'failed' ? 'failed' : result.state === 'skipped' ? 'skipped' : 'passed'
  const message =
    result.state === 'failed'
      ? result.errors.map((error) => error.message).join('\n')
      : result.state === 'skipped'
        ? result.note
        : undefined
  return {
    group: meta?.group ?? (testCase.parent.type === 'suite' ? testCase.parent.name : ''),
    name: testCase.name,
    outcome,
    ...(message === undefined ? {} : { message }),
    warnings: meta?.warnings ?? [],
    exchanges: meta?.exchanges ?? [],
  }
}

function toMarkdown(report: ConformanceReport): string {
  const { passed, failed, skipped } = report.totals
  const lines = [
    `## Animal Store conformance: ${failed === 0 ? '✅ conforms' : '❌ does not conform'}`,
    '',
    `Target \`${report.target.baseUrl}\`${report.target.readOnly ? ' (read-only)' : ''}${report.target.viaPrism ? ', through Prism' : ''}: ${passed} passed, ${failed} failed, ${skipped} skipped, ${report.warnings.length} warnings.`,
    '',
  ]
  const failures = report.checks.filter((check) => check.outcome === 'failed')
  if (failures.length > 0) {
    lines.push('### Failed checks', '')
    for (const check of failures)
      lines.push(
        `<details><summary>${escapeMarkdown(`${check.group} › ${check.name}`)}</summary>`,
        '',
        '```',
        check.message ?? '',
        '```',
        '</details>',
        '',
      )
  }
  lines.push(
    '### Coverage of declared operation × status pairs',
    '',
    '| operation | status | exercised |',
    '|---|---|---|',
  )
  for (const { pair, seen } of report.coverage) {
    const [operation, status] = pair.split(' ')
    lines.push(`| ${operation} | ${status} | ${seen ? 'yes' : '**no**'} |`)
  }
  if (report.warnings.length > 0)
    lines.push('', '### Warnings', '', ...report.warnings.map((warning) => `- ${escapeMarkdown(warning)}`))
  return `${lines.join('\n')}\n`
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}

function escapeMarkdown(text: string): string {
  return text.replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('|', '\\|')
}
