import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { conformanceCommand } from '../conformance-options.ts'
import { contractCommand } from '../contract-options.ts'
import { startMockCommand } from '../start-mock-options.ts'
import { optionsTable } from './command-options.ts'

const page = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8')

describe('the command-line reference in docs/cli.md', () => {
  it.each(
    [conformanceCommand, startMockCommand, contractCommand].map(
      (command) => [command.name, command] as const,
    ),
  )('shows the options of %s exactly as the command declares them', (name, command) => {
    const shown = new RegExp(`<!-- options: ${name} -->\\n([\\s\\S]*?)\\n<!-- /options -->`).exec(page)?.[1]
    // On a mismatch, `npm run docs:tables` writes the declared tables into the page.
    expect(shown, `a table between <!-- options: ${name} --> and <!-- /options -->`).toBe(
      optionsTable(command),
    )
  })
})
