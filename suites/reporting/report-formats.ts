// The text formats of a report: console summary, Markdown for CI pages, JUnit XML, and their shared lines.
import type { CheckResult } from '../engine/index.ts'
import {
  consumerDriftSwitch,
  type Finding,
  findingId,
  policySwitch,
  type Violation,
} from '../judging/index.ts'
import { trafficLine } from '../network/index.ts'
import { markdownCell, markdownCode, markdownFence, markdownInlineHtml, xmlEscape } from '../output/index.ts'
import type { ConformanceReport } from './conformance-report.ts'
import { reasonMarkdown, reasonText } from './exit-reason.ts'
import { petsOnTargetText } from './pets-on-target.ts'
import { previousRunConsoleLines, previousRunMarkdown } from './previous-run-formats.ts'
import { knownFindingIds, selectionLines, verdictQualifier } from './report-selection.ts'
import { totalsLine } from './report-totals.ts'

/** What an installed user runs; a run started otherwise says how in the report's `target.command`. */
const installedCommand = 'npx animal-store-conformance'

const headline: Record<ConformanceReport['verdict'], string> = {
  conforms: 'CONFORMS',
  'does-not-conform': 'DOES NOT CONFORM',
  incomplete: 'INCOMPLETE',
}

/** The heading of the deprecated calls consumers' recordings make, in the console and the HTML report. */
export const deprecatedUseHeading =
  'Deprecated use (calls in the consumers’ recorded interactions, to move off before the removal):'

/** The label a policy finding carries in every format: what it is, and the option that turns it off. */
export function kindLabel(finding: Pick<Finding, 'kind' | 'turnOff'>): string | undefined {
  if (finding.kind === 'consumer')
    return `consumer drift: the contract holds, a consumer's recorded interaction does not; make it a warning with ${finding.turnOff ?? consumerDriftSwitch}`
  return finding.kind === 'policy'
    ? `policy: the contract is silent here, this is the suite's opinion; turn it off with ${finding.turnOff ?? policySwitch}`
    : undefined
}

// A finding names this many records, then says how many more there are.
const namedRecords = 10

/** The records a finding names by id, capped, with the count. */
export function recordsLine(finding: Pick<Finding, 'records'>): string | undefined {
  const records = finding.records ?? []
  if (records.length === 0) return undefined
  const shown = records.slice(0, namedRecords).join(', ')
  return `${records.length} ${records.length === 1 ? 'record' : 'records'}, by id: ${shown}${records.length > namedRecords ? `, … (${records.length - namedRecords} more)` : ''}`
}

/** Where the contract says what was broken: a JSON pointer into contract/openapi.yaml. */
export function citesLine(finding: Pick<Finding, 'cites'>): string | undefined {
  return finding.cites === undefined ? undefined : `contract/openapi.yaml#${finding.cites}`
}

function findingTitle(finding: Finding, index: number): string {
  return `#${index + 1} ${finding.id} [${finding.rule}${finding.kind === 'contract' ? '' : `, ${finding.kind}`}] ${finding.where} — on ${finding.operations.join(', ')}; seen by ${finding.checks.length} ${finding.checks.length === 1 ? 'check' : 'checks'}${finding.blocked.length ? `, blocking ${finding.blocked.length}` : ''}`
}

/** The run's summary as a person reads it in a terminal or CI log: findings first, each once. */
export function toConsoleText(report: ConformanceReport): string {
  const lines: string[] = []
  report.findings.forEach((finding, index) => {
    lines.push(
      '',
      `${finding.accepted ? '○' : '✗'} ${findingTitle(finding, index)}`,
      ...(finding.accepted ? [`    ${acceptedLine(finding.accepted)}`] : []),
      indent(finding.message, 4),
    )
    const label = kindLabel(finding)
    if (label) lines.push(`    ${label}`)
    const records = recordsLine(finding)
    if (records) lines.push(`    ${records}`)
    const cites = citesLine(finding)
    if (cites) lines.push(`    contract: ${cites}`)
    if (finding.checks.length > 0)
      lines.push(
        `    checks: ${finding.checks.slice(0, 5).join('; ')}${finding.checks.length > 5 ? `; and ${finding.checks.length - 5} more` : ''}`,
      )
    if (finding.affected.length > 0)
      lines.push(
        `    also shown to ${finding.affected.length} other ${finding.affected.length === 1 ? 'check' : 'checks'}, judged on the rest`,
      )
    if (finding.example) lines.push('    example:', indent(finding.example, 6))
    if (finding.replay) lines.push('    reproduce:', indent(finding.replay, 6))
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
  if (report.deprecatedUse?.length)
    lines.push('', deprecatedUseHeading, ...report.deprecatedUse.map((use) => `  ~ ${use.line}`))
  for (const limitation of report.limitations) lines.push('', limitation)
  if (report.reason) lines.push('', reasonText(report.reason))
  lines.push(
    '',
    createdLine(report),
    `Seed ${report.target.seed}: ${report.target.command ?? installedCommand} --base-url ${report.target.baseUrl} --seed ${report.target.seed} replays the generated requests.`,
    ...(selectionLines(report).length > 0
      ? ['', 'Left out or accepted:', ...selectionLines(report).map((line) => `  - ${line}`)]
      : []),
    ...previousRunConsoleLines(report),
    '',
    `${headline[report.verdict]}${verdictQualifier(report)}: ${totalsLine(report)}`,
  )
  return lines.join('\n')
}

/** How every format marks a finding a baseline accepts: `accepted (baseline.json): PET-12, until 2027-01-31`. */
export function acceptedLine(accepted: NonNullable<Finding['accepted']>): string {
  return `accepted (${accepted.baseline}): ${accepted.reason}${accepted.expires ? `, until ${accepted.expires}` : ''}`
}

function createdLine(report: ConformanceReport): string {
  const made =
    report.created.count === 0
      ? 'Created nothing on the target.'
      : `Created ${report.created.count} pets on the target, named "${report.created.namePrefix} …"; the API cannot delete them.${report.created.ids?.length ? ` Ids: ${report.created.ids.filter((id) => /^-?\d{1,20}$/.test(id)).join(', ')}.` : ''}`
  const onTarget = petsOnTargetText(report)
  return `${made}${onTarget ? ` ${onTarget}` : ''}${trafficLine(report.traffic)}`
}

/** The Markdown summary for CI pages ($GITHUB_STEP_SUMMARY): verdict, findings, coverage, what was left. */
export function toMarkdown(report: ConformanceReport): string {
  const icon = {
    conforms: '✅ conforms',
    'does-not-conform': '❌ does not conform',
    incomplete: '⚠️ incomplete',
  }
  const lines = [
    `## Animal Store conformance: ${icon[report.verdict]}${verdictQualifier(report)}`,
    '',
    `Target ${markdownCode(report.target.baseUrl)}${report.target.readOnly ? ' (read-only)' : ''}${report.target.viaPrism ? ', through Prism' : ''}, seed ${report.target.seed}: ${totalsLine(report)}.`,
    '',
    ...(report.reason ? [reasonMarkdown(report.reason), ''] : []),
    createdLine(report),
    '',
    ...previousRunMarkdown(report),
  ]
  if (report.findings.length > 0) {
    lines.push(
      '### Findings',
      '',
      '| # | id | rule | kind | where | operations | checks | status |',
      '|---|---|---|---|---|---|---|---|',
    )
    for (const [index, finding] of report.findings.entries())
      lines.push(
        `| ${index + 1} | ${finding.id} | ${finding.rule} | ${finding.kind === 'contract' ? 'contract' : `${finding.kind} (${finding.kind === 'policy' ? 'off' : 'warn'}: \`${finding.turnOff}\`)`} | ${markdownCell(finding.where)} | ${finding.operations.join(', ')} | ${finding.checks.length}${finding.blocked.length ? ` (+${finding.blocked.length} blocked)` : ''} | ${finding.accepted ? `accepted ${markdownCell(acceptedLine(finding.accepted).replace(/^accepted /, ''))}` : 'fails'} |`,
      )
    lines.push('')
    for (const [index, finding] of report.findings.entries()) {
      const facts = [kindLabel(finding), recordsLine(finding), citesLine(finding)].filter(
        (fact): fact is string => fact !== undefined,
      )
      lines.push(
        `<details><summary>#${index + 1} ${finding.id}${finding.accepted ? ' (accepted)' : ''}: ${markdownInlineHtml(finding.message)}</summary>`,
        '',
        ...facts.map((fact) => `- ${markdownCode(fact)}`),
        ...(facts.length > 0 ? [''] : []),
        markdownFence(finding.example ?? ''),
        ...(finding.replay ? ['', 'Reproduce:', '', markdownFence(finding.replay)] : []),
        '</details>',
        '',
      )
    }
  }
  if (selectionLines(report).length > 0)
    lines.push(
      '### Left out or accepted',
      '',
      ...selectionLines(report).map((line) => `- ${markdownCode(line)}`),
      '',
    )
  if (report.pending.length > 0)
    lines.push(
      '### Pending at the deadline',
      '',
      ...report.pending.map((name) => `- ${markdownCode(name)}`),
      '',
    )
  // A run that judged nothing has no coverage to show: an empty table would only look like one.
  if (report.coverage.length > 0)
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
  if (report.deprecatedUse?.length)
    lines.push(
      '',
      '### Deprecated use',
      '',
      ...report.deprecatedUse.map((use) => `- ${markdownCode(use.line)}`),
    )
  return `${lines.join('\n')}\n`
}

/**
 * JUnit XML as CI test views read it (GitHub's, GitLab's and Jenkins' reporters): one test case per check,
 * its class the operation (the check's group); exactly one <failure> per finding, on the check that found it,
 * its message starting with the finding's id and rule; checks that only saw a finding reported elsewhere
 * pass, with a <system-out> line naming it. A suite error or a check still pending at the deadline is an
 * <error> (not the server's fault); a blocked, skipped or read-only check is <skipped>.
 */
export function toJunitXml(report: ConformanceReport): string {
  const findingOf = findingsByViolation(report.findings)
  const owner = new Map<Finding, CheckResult>()
  for (const check of report.checks)
    for (const violation of check.violations) {
      const finding = findingOf(violation)
      if (finding && !owner.has(finding)) owner.set(finding, check)
    }
  const cases: string[] = []
  let failures = 0
  let accepted = 0
  // A finding the baseline accepts is not a failure in the CI's test view: skipped, saying why.
  const known = knownFindingIds(report)
  const findingCase = (group: string, finding: Finding, name: string) => {
    if (!known.has(finding.id)) {
      failures++
      return failureCase(group, finding, name)
    }
    accepted++
    const reason = report.baseline?.known.find((entry) => entry.id === finding.id)?.reason ?? ''
    return `${openCase(group, name)}>\n      <skipped message="${xmlEscape(`known finding ${finding.id} [${finding.rule}], accepted in ${report.baseline?.path}: ${reason}`)}"/>\n    </testcase>`
  }
  for (const check of report.checks) {
    const owned = report.findings.filter((finding) => owner.get(finding) === check)
    // More than one finding first seen by one check: one test case each, so each finding fails once.
    owned.forEach((finding, index) => {
      cases.push(
        findingCase(check.group, finding, index === 0 ? check.name : `${check.name} [${finding.id}]`),
      )
    })
    if (owned.length === 0) cases.push(testCase(check, findingOf, deprecatedLines(report, check)))
  }
  // A finding no check failed on (only seen by checks it blocked or affected) still fails once, on its own.
  for (const finding of report.findings)
    if (!owner.has(finding))
      cases.push(findingCase(finding.operations[0] ?? 'run', finding, `${finding.id}: ${finding.where}`))
  // Excluded rules are skipped, never passed.
  for (const rule of report.excludedRules ?? [])
    cases.push(
      `${openCase('excluded', rule)}>\n      <skipped message="${xmlEscape(`excluded with --checks / --exclude-checks: ${rule} was not judged`)}"/>\n    </testcase>`,
    )
  // What was pending with no result of its own (a check the deadline cut, a run stopped from outside) is an
  // error too: the CI's test view must say why the run is incomplete, not show fewer tests.
  const timedOut = new Set(
    report.checks
      .filter((check) => check.outcome === 'timed-out')
      .map((check) => `${check.group} › ${check.name}`),
  )
  const unfinished = report.pending.filter((entry) => !timedOut.has(entry))
  for (const entry of unfinished)
    cases.push(
      `${openCase('run', `pending: ${entry}`)}>\n      <error message="${xmlEscape(`incomplete: ${entry}`)}"/>\n    </testcase>`,
    )
  // Why the run exited 2, as the CI's test view shows it: one error, the reason's kind its type.
  if (report.reason)
    cases.push(
      `${openCase('run', `exit 2: ${report.reason.kind}`)}>\n      <error message="${xmlEscape(reasonText(report.reason))}" type="${report.reason.kind}"/>\n    </testcase>`,
    )
  const errored =
    report.checks.filter((check) => ['errored', 'timed-out'].includes(check.outcome)).length +
    unfinished.length +
    (report.reason ? 1 : 0)
  const skipped =
    report.checks.filter((check) => ['blocked', 'skipped', 'not-checked'].includes(check.outcome)).length +
    accepted +
    (report.excludedRules?.length ?? 0)
  const tests = cases.length
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Animal Store conformance (seed ${report.target.seed})" tests="${tests}" failures="${failures}" errors="${errored}" skipped="${skipped}" time="${report.durationMs / 1000}">`,
    `  <testsuite name="Animal Store conformance" tests="${tests}" failures="${failures}" errors="${errored}" skipped="${skipped}" time="${report.durationMs / 1000}" timestamp="${report.startedAt.replace(/\.\d+Z$/, '')}">`,
    ...cases,
    ...report.limitations
      .filter((text) => text.startsWith('Insecure:'))
      .map((text) => `    <system-err>${xmlEscape(text)}</system-err>`),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}

/** The finding each violation was grouped into (auth findings merged by operations included). */
function findingsByViolation(findings: readonly Finding[]) {
  const byKey = new Map<string, Finding>()
  for (const finding of findings) {
    byKey.set(finding.key, finding)
    for (const key of finding.keys ?? []) byKey.set(key, finding)
    if (finding.rule === 'auth')
      for (const where of finding.where.split('; ')) byKey.set(findingId({ rule: 'auth', where }), finding)
  }
  return (violation: Pick<Violation, 'rule' | 'where'>) => byKey.get(findingId(violation))
}

function openCase(group: string, name: string): string {
  return `    <testcase classname="${xmlEscape(`animal-store.${group}`)}" name="${xmlEscape(name)}"`
}

function failureCase(group: string, finding: Finding, name: string): string {
  const head = `${finding.id} [${finding.rule}${finding.kind === 'contract' ? '' : `, ${finding.kind}`}] ${finding.message}`
  const evidence = [
    finding.message,
    kindLabel(finding),
    recordsLine(finding),
    citesLine(finding) && `contract: ${citesLine(finding)}`,
    finding.example,
    finding.replay && `reproduce:\n${finding.replay}`,
  ]
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join('\n\n')
  return `${openCase(group, name)}>\n      <failure message="${xmlEscape(head)}" type="${xmlEscape(finding.rule)}">${xmlEscape(evidence)}</failure>\n    </testcase>`
}

/** The deprecated-use lines of the consumer interaction this check replayed (none for other checks). */
function deprecatedLines(report: ConformanceReport, check: CheckResult): string[] {
  return (report.deprecatedUse ?? [])
    .filter((use) => check.group === `consumer ${use.consumer}` && use.interactions.includes(check.name))
    .map((use) => `deprecated: ${use.line}`)
}

function testCase(
  check: CheckResult,
  findingOf: ReturnType<typeof findingsByViolation>,
  deprecated: string[] = [],
): string {
  const open = openCase(check.group, check.name)
  const message = xmlEscape(check.message ?? '')
  switch (check.outcome) {
    case 'timed-out':
    case 'errored':
      return `${open}>\n      <error message="${message}">${message}</error>\n    </testcase>`
    case 'blocked':
    case 'skipped':
    case 'not-checked': {
      const by = check.blockedBy && findingOf(check.blockedBy)
      return `${open}>\n      <skipped message="${by ? xmlEscape(`blocked by ${by.id} [${by.rule}]`) : message}"/>\n    </testcase>`
    }
    default: {
      // Passed, or saw only findings another check reports: named, so the log says why it is green.
      const seen = [...check.violations, ...(check.affectedBy ?? [])]
        .map((violation) => findingOf(violation))
        .filter((finding): finding is Finding => finding !== undefined)
      const lines = [
        ...[...new Set(seen)].map(
          (finding) =>
            `affected by ${finding.id} [${finding.rule}] (reported on "${finding.checks[0] ?? finding.affected[0] ?? ''}"); judged on the rest.`,
        ),
        ...deprecated,
      ]
      if (lines.length === 0) return `${open}/>`
      return `${open}>\n      <system-out>${xmlEscape(lines.join('\n'))}</system-out>\n    </testcase>`
    }
  }
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces)
  return text
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n')
}
