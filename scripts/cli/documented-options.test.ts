import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { benchCommand } from '../bench-options.ts'
import { conformanceCommand } from '../conformance-options.ts'
import { contractCommand } from '../contract-options.ts'
import { startMockCommand } from '../start-mock-options.ts'
import type { CommandSpec } from './command-options.ts'

// The docs list only options that exist, and every option of the conformance command is documented: the
// option tables the parsers read are the one source, the pages are checked against them.
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')

/** Every `--flag` the command's parser accepts: its table, plus --help and --config that every parser adds. */
function accepted(command: CommandSpec): Set<string> {
  return new Set(
    [...Object.keys(command.options), 'help', ...(command.configFile ? ['config'] : [])].map(
      (name) => `--${name}`,
    ),
  )
}

const commands = {
  conformance: accepted(conformanceCommand),
  mock: accepted(startMockCommand),
  bench: accepted(benchCommand),
  contract: accepted(contractCommand),
}
type Owner = keyof typeof commands | 'other tool'

// Flags of other programs the pages name, with the program: never options of ours.
const otherTools = /\b(curl|npm (install|ci|pack)|node|git)\b/
const otherFlags = new Set(['--expose-gc']) // Node's: the suite sets it for itself (docs/conformance.md)

/** Whose flags a piece of code text shows: the command it names, or the page section's own. */
function ownerOf(code: string, fallback: Owner[]): Owner[] {
  if (/npm run bench/.test(code)) return ['bench']
  if (/npm run contract\b|animal-store-contract(?![-\w])/.test(code)) return ['contract']
  if (/npm run conformance|animal-store-conformance/.test(code)) return ['conformance']
  if (/npm start|animal-store-mock/.test(code)) return ['mock']
  if (otherTools.test(code)) return ['other tool']
  return fallback
}

/** Every `--flag` in code (spans and fenced lines) of a page, with who may own it there. */
function documentedFlags(page: string, sectionOwners: (heading: string) => Owner[]) {
  const found: { flag: string; code: string; owners: Owner[] }[] = []
  let heading = ''
  let fenced = false
  for (const line of page.split('\n')) {
    if (/^```/.test(line)) fenced = !fenced
    else if (!fenced && /^#{1,3} /.test(line)) heading = line
    const pieces = fenced ? [line] : [...line.matchAll(/(`+)(.+?)\1/g)].map((match) => match[2] ?? '')
    for (const code of pieces)
      for (const [flag] of code.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g))
        found.push({ flag, code, owners: ownerOf(code, sectionOwners(heading)) })
  }
  return found
}

const pages: [string, (heading: string) => Owner[]][] = [
  ['docs/conformance.md', () => ['conformance']],
  [
    'docs/cli.md',
    (heading) =>
      heading.includes('animal-store-mock')
        ? ['mock']
        : heading.includes('animal-store-contract')
          ? ['contract']
          : heading.includes('animal-store-conformance')
            ? ['conformance']
            : ['conformance', 'mock'],
  ],
  ['README.md', () => ['conformance', 'mock']],
  ['docs/contract-diff.md', () => ['contract']],
]

describe('the options the docs show', () => {
  it.each(pages)('%s shows only options its commands accept', (path, sectionOwners) => {
    const unknown = documentedFlags(read(path), sectionOwners)
      .filter(({ flag, owners }) => !owners.includes('other tool') && !otherFlags.has(flag))
      .filter(
        ({ flag, owners }) => !owners.some((owner) => owner !== 'other tool' && commands[owner].has(flag)),
      )
      .map(({ flag, code }) => `${flag} (in \`${code}\`)`)
    expect(unknown).toEqual([])
  })

  it('documents every option the contract command accepts', () => {
    const shown = new Set(
      documentedFlags(read('docs/contract-diff.md'), () => ['contract']).map(({ flag }) => flag),
    )
    expect([...commands.contract].filter((flag) => !shown.has(flag))).toEqual([])
  })

  it('documents every option the conformance command accepts', () => {
    const shown = new Set(
      documentedFlags(read('docs/cli.md'), () => ['conformance'])
        .concat(documentedFlags(read('docs/conformance.md'), () => ['conformance']))
        .map(({ flag }) => flag),
    )
    expect([...commands.conformance].filter((flag) => !shown.has(flag))).toEqual([])
  })

  it('catches an option that does not exist, and one nobody documented', () => {
    const page = 'Use `--skip-throttled` to go faster, or `npm run conformance -- --no-such-flag`.\n'
    expect(documentedFlags(page, () => ['conformance']).map(({ flag, owners }) => [flag, owners])).toEqual([
      ['--skip-throttled', ['conformance']],
      ['--no-such-flag', ['conformance']],
    ])
    expect(commands.conformance.has('--skip-throttled')).toBe(false)
    expect(commands.bench.has('--skip-throttled')).toBe(true)
  })
})
