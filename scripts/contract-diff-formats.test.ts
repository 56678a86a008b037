import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { describe, expect, it } from 'vitest'
import { diffContracts } from '../contract/diff/index.ts'
import { contract } from '../contract/index.ts'
import { diffJson, diffMarkdown } from './contract-diff-formats.ts'

// A contract is text from a pull request: what the Markdown shows of it must render as written.
function diffWithProperty(name: string) {
  const head = structuredClone(contract.document) as typeof contract.document & {
    components: { schemas: { Pet: { allOf: { properties: Record<string, unknown> }[] } } }
  }
  const member = head.components.schemas.Pet.allOf[1]
  if (member) member.properties[name] = { type: 'string' }
  return diffContracts(
    { document: contract.document, source: 'base.yaml', version: '1.0.0' },
    { document: head, source: 'head.yaml', version: '1.0.0' },
    { failOn: 'any', date: '2026-11-27' },
  )
}

describe('the diff reports', () => {
  it('escape a hostile property name in the Markdown: no HTML, no link, no cell break', () => {
    const markdown = diffMarkdown(
      diffWithProperty('<img src=x onerror=alert(1)>|[x](https://evil.test) www.evil.test me@evil.test'),
    )
    const html = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<a ')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    // Each of the three rows keeps its four cells: a | of the name splitting one would make more.
    const rows = html.split('<tr>').filter((row) => row.includes('<td>'))
    expect(rows.map((row) => row.split('<td>').length - 1)).toEqual([4, 4, 4])
  })

  it('say the verdict first, and put what breaks nobody in its own table', () => {
    const markdown = diffMarkdown(diffWithProperty('tag'))
    expect(markdown.split('\n').slice(0, 5)).toEqual([
      '## Contract diff: passes',
      '',
      'BASE `base.yaml` (info.version `1.0.0`) → HEAD `head.yaml` (info.version `1.0.0`); sunsets judged on 2026-11-27; failing on changes that break either side.',
      '',
      '0 changes break consumers (clients), 0 changes break providers (servers), 3 changes break nobody; 0 findings. Exit 0.',
    ])
    expect(markdown).toContain('### Not breaking (3)')
    expect(markdown).not.toContain('### Breaking changes')
    expect(JSON.parse(diffJson(diffWithProperty('tag'))).changes).toHaveLength(3)
  })
})
