import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { listRules } from '../../suites/judging/rules.ts'
import { catalogueProblems, readCatalogue } from './fault-catalogue.ts'

const checksPage = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8')
const ruleIds = listRules().map((rule) => rule.id)

// The classes of the lists at the commits docs/checks.md cites: WFC's DefinedFaultCategory, EvoMaster's
// ExperimentalFaultCategory and the checkers restler/checkers/__init__.py loads.
const wfcCodes = [100, 101, 102, 103, 104, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210]
const evoMasterCodes = [
  900, 901, 902, 903, 904, 905, 906, 907, 908, 909, 929, 930, 940, 941, 942, 943, 944, 950, 951, 952, 953,
  954, 955, 956, 957, 958, 959, 960, 961, 962, 963, 964, 965, 980,
]
const restlerCheckers = [
  'UseAfterFreeChecker',
  'NameSpaceRuleChecker',
  'ResourceHierarchyChecker',
  'LeakageRuleChecker',
  'InvalidDynamicObjectChecker',
  'PayloadBodyChecker',
  'ExamplesChecker',
  'InvalidValuesChecker',
]

/** A small page holding a catalogue table of the given rows (cells after the first two). */
function page(...rows: string[]): string {
  return [
    '<!-- catalogue:start -->',
    '| catalogue | class | applies here | contract or policy: the words | caught by | what no rule catches, and why |',
    '|---|---|---|---|---|---|',
    ...rows,
    '<!-- catalogue:end -->',
  ].join('\n')
}

describe('the catalogue table of docs/checks.md', () => {
  it('places every rule of the registry, names only rules it has, and gives a reason wherever it names none', () => {
    expect(catalogueProblems(readCatalogue(checksPage), ruleIds)).toEqual([])
  })

  it('lists every class of the WFC, EvoMaster and RESTler lists it cites, once each', () => {
    const entries = readCatalogue(checksPage).map((row) => row.entry)
    expect(entries.filter((entry) => entry !== '—')).toEqual([
      ...wfcCodes.map((code) => `WFC ${code}`),
      ...evoMasterCodes.map((code) => `EvoMaster ${code}`),
      ...restlerCheckers.map((name) => `RESTler ${name}`),
    ])
  })

  it('fails on a rule of the registry that sits in no row', () => {
    const rows = readCatalogue(page('| WFC 100 | HTTP Status 500 | yes | contract | `server-error` | — |'))
    expect(catalogueProblems(rows, ['server-error', 'auth'])).toEqual([
      'the rule `auth` sits in no row of the catalogue table',
    ])
  })

  it('fails on a row that names a rule the registry does not have, or something that is no rule id', () => {
    const rows = readCatalogue(
      page(
        '| WFC 100 | HTTP Status 500 | yes | contract | `server-error`, `server-crash` | — |',
        '| EvoMaster 961 | no-401-if-no-authenticate | yes | contract | wrong-challenge (planned) | — |',
      ),
    )
    expect(catalogueProblems(rows, ['server-error'])).toEqual([
      'WFC 100 names `server-crash`, which is not in the rule registry',
      'EvoMaster 961 names "wrong-challenge (planned)" in "caught by", which is not a backquoted rule id',
    ])
  })

  it('takes a row with no rule and a reason, and fails on a row with neither', () => {
    const rows = readCatalogue(
      page(
        '| WFC 202 | Server-Side Request Forgery (SSRF) | no | no URL | — | The server is given nothing to fetch. |',
        '| WFC 103 | Resource Still Accessible After Being Deleted | no | no DELETE | — | — |',
        '| WFC 206 | Allowed To Modify Resource | no | one key |  |  |',
      ),
    )
    expect(catalogueProblems(rows, [])).toEqual([
      'WFC 103 names no rule and gives no reason why none can catch it',
      'WFC 206 names no rule and gives no reason why none can catch it',
    ])
  })

  it('fails on an "applies here" other than yes, partly or no', () => {
    const rows = readCatalogue(page('| WFC 100 | HTTP Status 500 | maybe | contract | `server-error` | — |'))
    expect(catalogueProblems(rows, ['server-error'])).toEqual([
      'WFC 100 says it applies "maybe": write yes, partly or no',
    ])
  })

  it('fails on a class listed twice', () => {
    const row = '| WFC 100 | HTTP Status 500 | yes | contract | `server-error` | — |'
    expect(catalogueProblems(readCatalogue(page(row, row)), ['server-error'])).toEqual([
      'WFC 100 is listed twice',
    ])
  })

  it('throws when the page has lost the table or its header', () => {
    expect(() => readCatalogue('# Checks\n')).toThrow(/catalogue:start/)
    expect(() =>
      readCatalogue('<!-- catalogue:start -->\n| class | rules |\n|---|---|\n<!-- catalogue:end -->'),
    ).toThrow(/header/)
  })
})
