import type { ConformanceReport } from './conformance-report.ts'
import type { Finding } from './findings.ts'
import { markdownCell, markdownCode, markdownFence, markdownInlineHtml } from './output/neutralise.ts'
import type { CheckResult } from './run-check.ts'

const headline: Record<ConformanceReport['verdict'], string> = {
  conforms: 'CONFORMS',
  'does-not-conform': 'DOES NOT CONFORM',
  incomplete: 'INCOMPLETE',
}

function totalsLine(report: ConformanceReport): string {
  const { totals } = report
  const parts = [
    `${totals.findings} ${totals.findings === 1 ? 'finding' : 'findings'}`,
    `${totals.passed} checks passed`,
    `${totals.failed} failed`,
    ...(totals.blocked ? [`${totals.blocked} blocked`] : []),
    ...(totals.skipped ? [`${totals.skipped} skipped`] : []),
    ...(totals['not-checked'] ? [`${totals['not-checked']} not checked (read-only)`] : []),
    ...(totals['timed-out'] ? [`${totals['timed-out']} pending at the deadline`] : []),
    ...(totals.errored ? [`${totals.errored} errored`] : []),
    `${totals.warnings} warnings`,
  ]
  return parts.join(', ')
}

function findingTitle(finding: Finding, index: number): string {
  return `#${index + 1} [${finding.rule}] ${finding.where} — on ${finding.operations.join(', ')}; seen by ${finding.checks.length} ${finding.checks.length === 1 ? 'check' : 'checks'}${finding.blocked.length ? `, blocking ${finding.blocked.length}` : ''}`
}

/** The run's summary as a person reads it in a terminal or CI log: findings first, each once. */
export function toConsoleText(report: ConformanceReport): string {
  const lines: string[] = []
  report.findings.forEach((finding, index) => {
    lines.push('', `✗ ${findingTitle(finding, index)}`, indent(finding.message, 4))
    if (finding.checks.length > 0)
      lines.push(
        `    checks: ${finding.checks.slice(0, 5).join('; ')}${finding.checks.length > 5 ? `; and ${finding.checks.length - 5} more` : ''}`,
      )
    if (finding.example) lines.push('    example:', indent(finding.example, 6))
  })
  for (const check of report.checks.filter((check) => check.outcome === 'errored'))
    lines.push('', `! the suite failed in "${check.group} › ${check.name}":`, indent(check.message ?? '', 4))
  if (report.pending.length > 0)
    lines.push(
      '',
      'Still pending when the run’s deadline passed:',
      ...report.pending.map((name) => `  … ${name}`),
    )
  if (report.warnings.length > 0)
    lines.push(
      '',
      'Warnings (the contract leaves these open; not failures):',
      ...report.warnings.map((w) => `  ! ${w}`),
    )
  if (report.advice.length > 0)
    lines.push(
      '',
      'Advice for the contract’s owner (about the contract, not the server):',
      ...report.advice.map((advice) => `  ? ${advice}`),
    )
  if (report.notes.length > 0) lines.push('', 'Notes:', ...report.notes.map((note) => `  · ${note}`))
  for (const limitation of report.limitations) lines.push('', limitation)
  lines.push(
    '',
    createdLine(report),
    `Seed ${report.target.seed}: npm run conformance -- --base-url ${report.target.baseUrl} --seed ${report.target.seed} replays the generated requests.`,
    '',
    `${headline[report.verdict]}: ${totalsLine(report)}`,
  )
  return lines.join('\n')
}

function createdLine(report: ConformanceReport): string {
  return report.created.count === 0
    ? 'Created nothing on the target.'
    : `Created ${report.created.count} pets on the target, named "${report.created.namePrefix} …"; the API cannot delete them.`
}

/** The Markdown summary for CI pages ($GITHUB_STEP_SUMMARY): verdict, findings, coverage, what was left. */
export function toMarkdown(report: ConformanceReport): string {
  const icon = {
    conforms: '✅ conforms',
    'does-not-conform': '❌ does not conform',
    incomplete: '⚠️ incomplete',
  }
  const lines = [
    `## Animal Store conformance: ${icon[report.verdict]}`,
    '',
    `Target ${markdownCode(report.target.baseUrl)}${report.target.readOnly ? ' (read-only)' : ''}${report.target.viaPrism ? ', through Prism' : ''}, seed ${report.target.seed}: ${totalsLine(report)}.`,
    '',
    createdLine(report),
    '',
  ]
  if (report.findings.length > 0) {
    lines.push('### Findings', '', '| # | rule | where | operations | checks |', '|---|---|---|---|---|')
    for (const [index, finding] of report.findings.entries())
      lines.push(
        `| ${index + 1} | ${finding.rule} | ${markdownCell(finding.where)} | ${finding.operations.join(', ')} | ${finding.checks.length}${finding.blocked.length ? ` (+${finding.blocked.length} blocked)` : ''} |`,
      )
    lines.push('')
    for (const [index, finding] of report.findings.entries())
      lines.push(
        `<details><summary>#${index + 1} ${markdownInlineHtml(finding.message)}</summary>`,
        '',
        markdownFence(finding.example ?? ''),
        '</details>',
        '',
      )
  }
  if (report.pending.length > 0)
    lines.push(
      '### Pending at the deadline',
      '',
      ...report.pending.map((name) => `- ${markdownCode(name)}`),
      '',
    )
  lines.push(
    '### Coverage of declared operation × status pairs',
    '',
    '| operation | status | exercised |',
    '|---|---|---|',
  )
  for (const row of report.coverage)
    lines.push(
      `| ${row.operation} | ${row.status} | ${row.state === 'seen' ? 'yes' : row.state === 'not seen' ? '**no**' : row.state} |`,
    )
  // The run's own words about its mode, never a server's.
  for (const limitation of report.limitations) lines.push('', `> ${limitation}`)
  if (report.warnings.length > 0)
    lines.push('', '### Warnings', '', ...report.warnings.map((warning) => `- ${markdownCode(warning)}`))
  if (report.advice.length > 0)
    lines.push(
      '',
      '### Advice for the contract’s owner',
      '',
      ...report.advice.map((advice) => `- ${markdownCode(advice)}`),
    )
  if (report.notes.length > 0)
    lines.push('', '### Notes', '', ...report.notes.map((note) => `- ${markdownCode(note)}`))
  return `${lines.join('\n')}\n`
}

/** JUnit XML, one test case per check: a CI system shows failures and counts from it. */
export function toJunitXml(report: ConformanceReport): string {
  const failed = report.checks.filter((check) => ['failed', 'timed-out'].includes(check.outcome)).length
  const errored = report.checks.filter((check) => check.outcome === 'errored').length
  const skipped = report.checks.filter((check) =>
    ['blocked', 'skipped', 'not-checked'].includes(check.outcome),
  ).length
  const cases = report.checks.map((check) => testCase(check))
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Animal Store conformance (seed ${report.target.seed})" tests="${report.checks.length}" failures="${failed}" errors="${errored}" skipped="${skipped}" time="${report.durationMs / 1000}">`,
    `  <testsuite name="Animal Store conformance" tests="${report.checks.length}" failures="${failed}" errors="${errored}" skipped="${skipped}" timestamp="${report.startedAt}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}

function testCase(check: CheckResult): string {
  const open = `    <testcase classname="${xml(check.group)}" name="${xml(check.name)}"`
  const message = xml(check.message ?? '')
  switch (check.outcome) {
    case 'failed':
    case 'timed-out': {
      const details = check.violations
        .map((violation) => `${violation.message}\n${violation.exchange ?? ''}`)
        .join('\n\n')
      return `${open}>\n      <failure message="${message}">${xml(details || check.message || '')}</failure>\n    </testcase>`
    }
    case 'errored':
      return `${open}>\n      <error message="${message}">${message}</error>\n    </testcase>`
    case 'blocked':
    case 'skipped':
    case 'not-checked':
      return `${open}>\n      <skipped message="${message}"/>\n    </testcase>`
    default:
      return `${open}/>`
  }
}

// XML 1.0 §2.2 allows tab, newline, carriage return and the rest from U+0020; a server's bytes may hold others.
const xmlAllowed = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code !== 0xfffe && code !== 0xffff)

function xml(text: string): string {
  return Array.from(text, (char) => (xmlAllowed(char.codePointAt(0) ?? 0) ? char : '\ufffd'))
    .join('')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces)
  return text
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n')
}
