// Reads the EvoMaster and RESTler catalogue table of docs/checks.md and says where it and the rule registry part.

/** The markers around the catalogue table in docs/checks.md. */
const catalogueMarkers = ['<!-- catalogue:start -->', '<!-- catalogue:end -->'] as const

/** One row of the table: the class it answers, the rules that catch it, and why no rule can where none does. */
export interface CatalogueRow {
  /** The first cell: `WFC 100`, `EvoMaster 909`, `RESTler UseAfterFreeChecker`, or `—` for a rule of ours alone. */
  entry: string
  /** Whether the class can happen against this contract: `yes`, `partly` or `no`. */
  applies: string
  /** The rule ids the "caught by" cell names, in its order. */
  rules: string[]
  /** The last cell: what no rule catches, and why; empty when the cell is `—` or blank. */
  reason: string
  /** What in the "caught by" cell is neither `—` nor a list of backquoted rule ids. */
  unreadable: string[]
}

const header = [
  'catalogue',
  'class',
  'applies here',
  'contract or policy: the words',
  'caught by',
  'what no rule catches, and why',
]

/** A Markdown table row split into its cells, with escaped pipes kept inside their cell. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
}

/** A cell that says nothing: blank, or only a dash. */
function empty(cell: string): boolean {
  return /^[—–-]?$/.test(cell.trim())
}

/**
 * The catalogue table of a docs/checks.md text, row by row. Throws when the markers or the header are not
 * there, so a page that lost its table fails rather than passing with no rows.
 */
export function readCatalogue(page: string): CatalogueRow[] {
  const [open, close] = catalogueMarkers
  const start = page.indexOf(open)
  const end = page.indexOf(close, start)
  if (start < 0 || end < 0) throw new Error(`docs/checks.md has no ${open} … ${close} block.`)
  const lines = page
    .slice(start + open.length, end)
    .split('\n')
    .filter((line) => line.trim().startsWith('|'))
  const [head, rule, ...body] = lines
  if (JSON.stringify(cells(head ?? '')) !== JSON.stringify(header) || !/^\|[-|\s]+\|$/.test(rule ?? ''))
    throw new Error(`The catalogue table's header must be | ${header.join(' | ')} |.`)
  return body.map((line) => {
    const row = cells(line)
    const caught = row[4] ?? ''
    const parts = empty(caught) ? [] : caught.split(',').map((part) => part.trim())
    return {
      entry: row[0] ?? '',
      applies: row[2] ?? '',
      rules: parts.flatMap((part) => /^`([a-z0-9-]+)`$/.exec(part)?.[1] ?? []),
      reason: empty(row[5] ?? '') ? '' : (row[5] ?? ''),
      unreadable: parts.filter((part) => !/^`[a-z0-9-]+`$/.test(part)),
    }
  })
}

/**
 * Every way the table and the registry part: a rule no row names, a row naming a rule the registry does not
 * have or something that is no rule id, a row that names no rule and gives no reason, an entry listed twice,
 * an "applies here" that is not yes, partly or no.
 */
export function catalogueProblems(rows: readonly CatalogueRow[], ruleIds: readonly string[]): string[] {
  const known = new Set(ruleIds)
  const named = new Set(rows.flatMap((row) => row.rules))
  const problems = ruleIds
    .filter((id) => !named.has(id))
    .map((id) => `the rule \`${id}\` sits in no row of the catalogue table`)
  const seen = new Set<string>()
  for (const row of rows) {
    for (const id of row.rules.filter((one) => !known.has(one)))
      problems.push(`${row.entry} names \`${id}\`, which is not in the rule registry`)
    for (const part of row.unreadable)
      problems.push(`${row.entry} names "${part}" in "caught by", which is not a backquoted rule id`)
    if (row.rules.length === 0 && row.unreadable.length === 0 && row.reason === '')
      problems.push(`${row.entry} names no rule and gives no reason why none can catch it`)
    if (!['yes', 'partly', 'no'].includes(row.applies))
      problems.push(`${row.entry} says it applies "${row.applies}": write yes, partly or no`)
    if (!empty(row.entry) && seen.has(row.entry)) problems.push(`${row.entry} is listed twice`)
    seen.add(row.entry)
  }
  return problems
}
