// The "since the previous run" section in words: its console lines and its Markdown, a pull-request comment.
import { clip, markdownCode } from '../output/index.ts'
import type { ConformanceReport } from './conformance-report.ts'
import type { Caveat, ComparedFinding, RunComparison, UnknownWhy } from './run-comparison.ts'

/** How many findings each list shows in the console and in Markdown; the rest are counted, all in the JSON. */
export const listedPerGroup = 10

/** The lists of a comparison in the order a reader wants them, each with its label. */
export function comparisonGroups(
  comparison: RunComparison,
): { label: string; findings: (ComparedFinding & { why?: UnknownWhy })[] }[] {
  return [
    { label: 'New', findings: comparison.new },
    { label: 'Fixed', findings: comparison.fixed },
    { label: 'Still open', findings: comparison.stillOpen },
    { label: 'Not compared', findings: comparison.unknown },
  ]
}

/** `1 new, 2 fixed, 3 still open`, or what stood in the way of a comparison. */
export function comparisonCounts(comparison: RunComparison): string {
  if (comparison.state === 'first-run') return 'no previous report'
  if (comparison.state === 'nothing-judged') return 'the previous run judged nothing'
  const counts = [
    `${comparison.new.length} new`,
    `${comparison.fixed.length} fixed`,
    `${comparison.stillOpen.length} still open`,
    ...(comparison.unknown.length > 0 ? [`${comparison.unknown.length} not compared`] : []),
  ]
  return counts.join(', ')
}

/**
 * What the comparison is against, in one sentence; `code` marks the texts that came from a file or a
 * server (a code span in Markdown, nothing in the console or in HTML, where the whole text is escaped).
 */
export function comparedWith(comparison: RunComparison, code: (text: string) => string): string {
  const previous = comparison.previous
  if (comparison.state === 'first-run' || previous === undefined)
    return `No previous report at ${code(comparison.path)}: nothing to compare with (a pipeline's first run, or an artefact that expired). The next run can compare with this run's conformance.json.`
  const run = `the run of ${code(previous.startedAt)} against ${code(previous.baseUrl)}`
  if (comparison.state === 'nothing-judged')
    return `Nothing to compare: ${run} (${code(comparison.path)}) judged no check (it ended with exit 2 before any${previous.reasonKind ? `: ${code(previous.reasonKind)}` : ''}), so it knew of no finding.`
  const none = [comparison.new, comparison.fixed, comparison.stillOpen, comparison.unknown].every(
    (list) => list.length === 0,
  )
  return `Compared by finding id with ${run} (${verdictWords[previous.verdict]}), read from ${code(comparison.path)}.${none ? ' Neither run reported a finding.' : ''}`
}

const verdictWords: Record<NonNullable<RunComparison['previous']>['verdict'], string> = {
  conforms: 'it conformed',
  'does-not-conform': 'it did not conform',
  incomplete: 'it was incomplete, exit 2',
}

function sameServer(comparison: RunComparison): boolean {
  return comparison.state === 'compared' && !comparison.caveats.some((caveat) => caveat.about === 'server')
}

/** Why a difference may not be a change to one server. */
export function caveatText(caveat: Caveat, code: (text: string) => string): string {
  const both = `${code(caveat.previous)}; this one ${code(caveat.current)}`
  switch (caveat.about) {
    case 'server':
      return `The previous run checked ${both}: a difference may be between the two servers, not a change to one.`
    case 'contract':
      return `The previous run judged against contract ${both}: a finding may be new or fixed because the contract changed.`
    case 'mode':
      return `The previous run was ${both}: findings only creating pets can show may be listed as new or fixed for that reason alone.`
  }
}

const unknownWhyText: Record<UnknownWhy, string> = {
  'previous-incomplete': 'not seen by the previous run, which was incomplete: it may be older',
  'previous-excluded': 'its rule was left out of the previous run (--checks / --exclude-checks)',
  'current-incomplete': 'not seen by this run, which is incomplete: it may still be open',
  'current-excluded': 'its rule is left out of this run (--checks / --exclude-checks): not judged',
}

/** One finding on one line: id, rule, where, operations, and its baseline mark. */
export function comparedLine(
  finding: ComparedFinding & { why?: UnknownWhy },
  code: (text: string) => string,
): string {
  const operations = finding.operations.map(code).join(', ')
  return [
    `${code(finding.id)} ${finding.rule} ${code(clip(finding.where, 200))}`,
    operations === '' ? '' : ` on ${operations}`,
    finding.accepted ? ' (accepted in a baseline)' : '',
    finding.why ? `: ${unknownWhyText[finding.why]}` : '',
  ].join('')
}

/** The console's lines for the comparison (printed through the output boundary), or none without --previous. */
export function previousRunConsoleLines(report: ConformanceReport): string[] {
  const comparison = report.previous
  if (!comparison) return []
  // A text from a file or a server stays on its line: it cannot add a line that looks like the run's own.
  const plain = (text: string) => text.replace(/\r\n|\r|\n/g, '\\n')
  const lines = [
    '',
    `Since the previous run: ${comparisonCounts(comparison)}.`,
    `  ${comparedWith(comparison, plain)}`,
    ...comparison.caveats.map((caveat) => `  ! ${caveatText(caveat, plain)}`),
  ]
  for (const { label, findings } of comparisonGroups(comparison)) {
    if (findings.length === 0) continue
    lines.push(`  ${label}:`)
    for (const finding of findings.slice(0, listedPerGroup)) lines.push(`    ${comparedLine(finding, plain)}`)
    if (findings.length > listedPerGroup)
      lines.push(`    and ${findings.length - listedPerGroup} more (every one is in conformance.json)`)
  }
  return lines
}

/**
 * The lines around the section in summary.md, invisible once rendered: a workflow posts what lies between
 * them as a pull-request comment. Each is a whole line no text from a file or a server can be: those sit
 * in list items, quotes and sentences the section starts itself.
 */
export const previousRunMarkers = {
  start: '<!-- animal-store-conformance previous-run:start -->',
  end: '<!-- animal-store-conformance previous-run:end -->',
}

/**
 * The comparison as Markdown that reads on its own, so a workflow can post it as a pull-request comment:
 * its own heading naming the service and both runs, no link, every text from a file or a server in a code
 * span, at most `listedPerGroup` findings a list and a line counting the rest.
 */
export function previousRunMarkdown(report: ConformanceReport): string[] {
  const comparison = report.previous
  if (!comparison) return []
  const lines = [
    previousRunMarkers.start,
    `### Animal Store conformance since the previous run: ${comparisonCounts(comparison)}`,
    '',
    `${comparedWith(comparison, markdownCode)}${sameServer(comparison) ? ' This run checked the same base URL.' : ''}`,
    '',
  ]
  for (const caveat of comparison.caveats) lines.push(`> ${caveatText(caveat, markdownCode)}`, '')
  for (const { label, findings } of comparisonGroups(comparison)) {
    if (findings.length === 0) continue
    lines.push(`**${label} (${findings.length})**`, '')
    for (const finding of findings.slice(0, listedPerGroup))
      lines.push(`- ${comparedLine(finding, markdownCode)}`)
    if (findings.length > listedPerGroup)
      lines.push(`- and ${findings.length - listedPerGroup} more (every one is in conformance.json)`)
    lines.push('')
  }
  return [...lines, previousRunMarkers.end, '']
}
