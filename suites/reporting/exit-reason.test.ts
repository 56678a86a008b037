import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { exitReasonKinds, reasonMarkdown, reasonText } from './exit-reason.ts'

// The kinds a pipeline branches on are a closed list, and docs/conformance.md lists exactly them.
const page = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8')

describe('the reasons a run exits 2 for', () => {
  it('are listed in docs/conformance.md, each kind with its line, and no other', () => {
    const table = /<!-- exit-reasons:start -->\n([\s\S]*?)\n<!-- exit-reasons:end -->/.exec(page)?.[1] ?? ''
    const documented = [...table.matchAll(/^\| `([a-z-]+)` \| (.+) \|$/gm)].map(([, kind, when]) => [
      kind,
      when,
    ])
    expect(documented).toEqual(Object.entries(exitReasonKinds))
  })

  it('read as one line in the console and in Markdown, server text in a code span', () => {
    const reason = { kind: 'unreachable', message: 'Cannot reach <b>x</b>.', advice: 'Start it.' } as const
    expect(reasonText(reason)).toBe('Exit 2 (unreachable): Cannot reach <b>x</b>. What to do: Start it.')
    expect(reasonMarkdown(reason)).toBe(
      '**Exit 2 (`unreachable`):** `Cannot reach <b>x</b>.` **What to do:** `Start it.`',
    )
  })
})
