import { readFileSync, writeFileSync } from 'node:fs'
import { conformanceCommand } from '../conformance-options.ts'
import { startMockCommand } from '../start-mock-options.ts'
import { optionsTable } from './command-options.ts'

// Rewrites the option tables of docs/cli.md from the commands' declarations (`npm run docs:options`),
// the same tables its test compares.
const page = new URL('../../docs/cli.md', import.meta.url)
let text = readFileSync(page, 'utf8')
for (const command of [conformanceCommand, startMockCommand]) {
  const marker = new RegExp(`(<!-- options: ${command.name} -->\\n)[\\s\\S]*?(\\n<!-- /options -->)`)
  if (!marker.test(text)) throw new Error(`docs/cli.md has no <!-- options: ${command.name} --> block.`)
  text = text.replace(marker, (_, open: string, close: string) => `${open}${optionsTable(command)}${close}`)
}
writeFileSync(page, text)
console.log('Wrote the option tables of docs/cli.md.')
