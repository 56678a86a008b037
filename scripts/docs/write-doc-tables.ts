import { readFileSync, writeFileSync } from 'node:fs'
import { rulesMarkdown } from '../../suites/judging/index.ts'
import { optionsTable } from '../cli/command-options.ts'
import { conformanceCommand } from '../conformance-options.ts'
import { contractCommand } from '../contract-options.ts'
import { layersMarkdown } from '../layer-order.ts'
import { startMockCommand } from '../start-mock-options.ts'
import { parityMarkdown } from './schemathesis-parity.ts'

// Rewrites the tables the docs show from what the code declares: the commands' options in docs/cli.md,
// the rule registry and the Schemathesis parity table in docs/checks.md, the layer order in
// docs/architecture.md. Tests compare the same tables, so this is what to run when one of them fails.
if (process.argv.includes('--help')) {
  console.log(`Usage: npm run docs:tables

Rewrites the generated tables of docs/cli.md (every command's options) and docs/checks.md (the rules,
the Schemathesis parity table) and docs/architecture.md (the layer order) from their declarations in the
code, between their <!-- --> markers.`)
  process.exit(0)
}

/** The page with the text between `open` and `close` replaced by `table`; throws when a marker is missing. */
function replaceBlock(page: string, text: string, open: string, close: string, table: string): string {
  const start = text.indexOf(open)
  const end = text.indexOf(close, start)
  if (start < 0 || end < 0)
    throw new Error(`${page} has no ${open} … ${close} block: put one where the table goes.`)
  return `${text.slice(0, start + open.length)}\n${table}\n${text.slice(end)}`
}

const pages: Record<string, [open: string, close: string, table: string][]> = {
  'docs/cli.md': [conformanceCommand, startMockCommand, contractCommand].map((command) => [
    `<!-- options: ${command.name} -->`,
    '<!-- /options -->',
    optionsTable(command),
  ]),
  'docs/architecture.md': [['<!-- layers:start -->', '<!-- layers:end -->', layersMarkdown()]],
  'docs/checks.md': [
    ['<!-- rules:start -->', '<!-- rules:end -->', rulesMarkdown()],
    ['<!-- parity:start -->', '<!-- parity:end -->', parityMarkdown()],
  ],
}
for (const [page, blocks] of Object.entries(pages)) {
  const file = new URL(`../../${page}`, import.meta.url)
  let text = readFileSync(file, 'utf8')
  for (const [open, close, table] of blocks) text = replaceBlock(page, text, open, close, table)
  writeFileSync(file, text)
  console.log(`Wrote the tables of ${page}.`)
}
