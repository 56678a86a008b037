// The diff's two reports: Markdown for a pull request's step summary, JSON for tools, both from one diff.
import type { ContractChange, ContractDiff, Side } from '../contract/diff/index.ts'
import { markdownCell } from '../suites/output/index.ts'

const sideNames: Record<Side, string> = { consumers: 'consumers (clients)', providers: 'providers (servers)' }

/**
 * Text from a document (a reason quoting a property name, a sunset) as Markdown that renders as written:
 * every character Markdown or HTML reads is escaped (CommonMark §2.4), on one line so it stays in its cell,
 * and the `:` of a URL scheme, the `@` of an address and the `.` of `www.` written as character references,
 * which GFM's autolinks (GFM §6.9) do not match.
 */
function text(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]<>()#+!|~&]/g, '\\$&')
    .replace(/\b(https?|ftp|mailto|xmpp):/gi, '$1&#58;')
    .replace(/(?<=[\w.+-])@(?=[\w-])/g, '&#64;')
    .replace(/www\./gi, (www) => `${www.slice(0, 3)}&#46;`)
}

function operationCell(change: ContractChange): string {
  const { operation } = change
  if (!operation) return 'document'
  const line = `${operation.method} ${operation.path}`
  return operation.id ? `${markdownCell(operation.id)} ${markdownCell(line)}` : markdownCell(line)
}

/** Where in the operation: `query parameter limit`, `request body /tag`, `response 200 /*\/status`. */
function whereText(change: ContractChange): string {
  const { location } = change
  const pointer = location.pointer ? ` ${location.pointer}` : ''
  if (location.in === 'document') return `document ${location.documentPointer ?? ''}`.trim()
  if (location.in === 'operation')
    return location.documentPointer ? `operation ${location.documentPointer}` : 'operation'
  if (location.parameter) return `${location.parameter.in} parameter ${location.parameter.name}${pointer}`
  if (location.in === 'request') return `request body${pointer}`
  if (location.header) return `response ${location.status} header ${location.header}${pointer}`
  return `response ${location.status ?? ''}${pointer}`
}

function changeRow(change: ContractChange, withSides: boolean): string {
  const cells = [
    ...(withSides ? [change.breaks.join(', ')] : []),
    operationCell(change),
    markdownCell(whereText(change)),
    text(`${change.action} ${change.what}`),
    text(change.reason),
  ]
  return `| ${cells.join(' | ')} |`
}

/** "removed operation on getPet breaks 3 interactions of web-app: …", or that nobody recorded uses it. */
function affectedLine(change: ContractChange): string {
  const what = `${change.action} ${change.what}${change.operation ? ` on ${change.operation.id ?? `${change.operation.method} ${change.operation.path}`}` : ''}`
  const affected = change.affected ?? []
  if (affected.length === 0)
    return `- ${text(what)}: no recorded interaction uses it (it stays breaking by the rules: a consumer that did not record may).`
  const parts = affected.map(
    ({ consumer, interactions }) =>
      `${plural(interactions.length, 'interaction')} of ${consumer} (${interactions.slice(0, 5).join('; ')}${interactions.length > 5 ? '; …' : ''})`,
  )
  return `- ${text(`${what} breaks ${parts.join(', and ')}`)}`
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

/** The Markdown report: the verdict, the breaking changes, the findings, then what breaks nobody. */
export function diffMarkdown(diff: ContractDiff): string {
  const breaking = diff.changes.filter((change) => change.breaks.length > 0)
  const harmless = diff.changes.filter((change) => change.breaks.length === 0)
  const { verdict } = diff
  const counted = diff.failOn === 'any' ? 'either side' : sideNames[diff.failOn]
  const lines = [
    `## Contract diff: ${verdict.exitCode === 0 ? 'passes' : 'fails'}`,
    '',
    `BASE ${markdownCell(diff.base.source)} (info.version ${markdownCell(diff.base.version)}) → HEAD ${markdownCell(diff.head.source)} (info.version ${markdownCell(diff.head.version)}); sunsets judged on ${diff.date}; failing on changes that break ${counted}.`,
    '',
    `${plural(verdict.consumers, 'change')} ${verdict.consumers === 1 ? 'breaks' : 'break'} ${sideNames.consumers}, ${plural(verdict.providers, 'change')} ${verdict.providers === 1 ? 'breaks' : 'break'} ${sideNames.providers}, ${plural(harmless.length, 'change')} ${harmless.length === 1 ? 'breaks' : 'break'} nobody; ${plural(diff.findings.length, 'finding')}. Exit ${verdict.exitCode}.`,
  ]
  if (breaking.length > 0)
    lines.push(
      '',
      '### Breaking changes',
      '',
      '| Breaks | Operation | Where | Change | Why |',
      '|---|---|---|---|---|',
      ...breaking.map((change) => changeRow(change, true)),
    )
  if (breaking.some((change) => change.affected !== undefined))
    lines.push('', '### Who is affected (recorded interactions, --pact)', '', ...breaking.map(affectedLine))
  if (diff.findings.length > 0)
    lines.push(
      '',
      '### Findings',
      '',
      ...diff.findings.map((finding) => `- **${finding.kind}**: ${text(finding.message)}`),
    )
  if (harmless.length > 0)
    lines.push(
      '',
      `### Not breaking (${harmless.length})`,
      '',
      '| Operation | Where | Change | Why |',
      '|---|---|---|---|',
      ...harmless.map((change) => changeRow(change, false)),
    )
  if (diff.changes.length === 0) lines.push('', 'The two documents validate the same requests and responses.')
  return `${lines.join('\n')}\n`
}

/** The JSON report: the diff as it is (its shape is described in docs/contract-diff.md). */
export function diffJson(diff: ContractDiff): string {
  return `${JSON.stringify(diff, null, 2)}\n`
}
