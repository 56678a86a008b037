import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../engine/run-check.ts'
import type { Violation } from '../judging/findings.ts'
import { reportFacts } from '../proof/report-facts.ts'
import { buildReport } from './conformance-report.ts'
import { toConsoleText, toJunitXml, toMarkdown } from './report-formats.ts'

const facts = reportFacts({ created: { count: 3, namePrefix: 'conformance-abc' } })
const violation = (
  rule: Violation['rule'],
  where: string,
  operation: string,
  message = `${rule} at ${where}`,
): Violation => ({
  rule,
  where,
  operation,
  message,
  exchange: '> GET /v1/pets\n< 200',
})
const check = (
  name: string,
  outcome: CheckResult['outcome'],
  violations: Violation[] = [],
  blockedBy?: Violation,
) =>
  ({
    group: 'g',
    name,
    outcome,
    violations,
    warnings: [],
    advice: [],
    notes: [],
    ...(blockedBy ? { blockedBy } : {}),
  }) as CheckResult

describe('the report groups what checks saw into distinct findings', () => {
  it('fails one check for a record stored wrong even when every check saw it set aside in flight', () => {
    const stored = violation(
      'stored-record',
      'stored records: status must be one of available, pending, sold',
      'listPets',
    )
    const affected = (name: string) => ({ ...check(name, 'passed'), affectedBy: [stored] }) as CheckResult
    const report = buildReport([affected('first'), affected('second')], facts)
    expect(report.checks.map((one) => one.outcome)).toEqual(['failed', 'passed'])
    expect(report.findings.map((finding) => [finding.rule, finding.checks])).toEqual([
      ['stored-record', ['first']],
    ])
  })

  it('fails one check for a record stored wrong, however many checks read it in flight', () => {
    const stored = (operation: string) =>
      violation('stored-record', 'stored records: status must be one of available, pending, sold', operation)
    const other = violation('limit', 'query limit', 'listPets')
    const report = buildReport(
      [
        check('first', 'failed', [stored('listPets')]),
        check('second', 'failed', [stored('listPets')]),
        check('third', 'failed', [stored('getPet'), other]),
      ],
      facts,
    )
    expect(report.findings.map((finding) => finding.rule)).toEqual(['stored-record', 'limit'])
    expect(report.checks.map((one) => one.outcome)).toEqual(['failed', 'passed', 'failed'])
    expect(report.checks[1]?.affectedBy?.map((one) => one.rule)).toEqual(['stored-record'])
    expect(report.checks[2]?.violations.map((one) => one.rule)).toEqual(['limit'])
    expect(report.totals).toMatchObject({ failed: 2, passed: 1 })
  })

  it('reports one defect once, counting the checks that saw it and those it blocked', () => {
    const dup = violation('duplicate-id', 'createPet ids', 'createPet')
    const report = buildReport(
      [
        check('a', 'failed', [dup]),
        check('b', 'failed', [dup]),
        check('c', 'blocked', [], dup),
        check('d', 'passed'),
      ],
      facts,
    )
    expect(report.findings).toHaveLength(1)
    expect(report.findings[0]).toMatchObject({ rule: 'duplicate-id', checks: ['a', 'b'], blocked: ['c'] })
    expect(report.verdict).toBe('does-not-conform')
    expect(report.totals).toMatchObject({ failed: 2, blocked: 1, passed: 1, findings: 1 })
  })

  it('merges auth holes seen on exactly the same operations into one finding', () => {
    const report = buildReport(
      [
        check('no key', 'failed', [violation('auth', 'no credentials', 'GET /store/orders')]),
        check('wrong key', 'failed', [
          violation('auth', 'a bearer token other than the key', 'GET /store/orders'),
        ]),
        check('list', 'failed', [violation('auth', 'the key in upper case', 'listPets')]),
      ],
      facts,
    )
    expect(report.findings.map((finding) => finding.operations)).toEqual([
      ['GET /store/orders'],
      ['listPets'],
    ])
  })

  it('folds near-miss auth findings into a hole that lets any key in, on the operations they share', () => {
    const everywhere = ['listPets', 'createPet', 'getPet', 'GET /store/orders']
    const report = buildReport(
      [
        ...everywhere.map((operation) =>
          check(`wrong key ${operation}`, 'failed', [
            violation('auth', 'a bearer token other than the key', operation),
          ]),
        ),
        check('upper case', 'failed', [violation('auth', 'the key in upper case', 'listPets')]),
        check('upper case write', 'failed', [violation('auth', 'the key in upper case', 'createPet')]),
      ],
      facts,
    )
    expect(report.findings).toHaveLength(1)
    expect(report.findings[0]?.checks).toHaveLength(6)
  })

  it('merges auth findings into the same findings and ids, whatever order their probes were answered in', () => {
    // One check sends its probes at once: the order of its violations is the order the answers came in.
    const probes = [
      violation('auth', 'no credentials', 'listPets'),
      violation('auth', 'no credentials', 'getPet'),
      violation('auth', 'a bearer token other than the key', 'listPets'),
      violation('auth', 'a bearer token other than the key', 'getPet'),
      violation('auth', 'a bearer token other than the key', 'createPet'),
      violation('auth', 'the key in upper case', 'getPet'),
    ]
    const merged = (order: Violation[]) =>
      buildReport([check('keys', 'failed', order)], facts)
        .findings.map((finding) => `${finding.id} ${finding.where}`)
        .sort()
    const forwards = merged(probes)
    expect(forwards).toHaveLength(1)
    expect(merged([...probes].reverse())).toEqual(forwards)
    expect(merged([probes[2], probes[0], probes[5], probes[4], probes[1], probes[3]] as Violation[])).toEqual(
      forwards,
    )
  })

  it('takes a finding’s example and its replay command from the same violation', () => {
    const bare = { ...violation('limit', 'query limit', 'listPets'), exchange: undefined }
    const shown = {
      ...violation('limit', 'query limit', 'listPets'),
      replay: "curl -i 'http://h/v1/pets?limit=3'",
    }
    const report = buildReport([check('a', 'failed', [bare]), check('b', 'failed', [shown])], facts)
    expect(report.findings[0]).toMatchObject({ example: shown.exchange, replay: shown.replay })
  })

  it('calls a run incomplete, not failed, when checks were pending at the deadline or the suite broke', () => {
    expect(buildReport([check('slow', 'timed-out')], facts).verdict).toBe('incomplete')
    expect(buildReport([check('bug', 'errored')], facts).verdict).toBe('incomplete')
    expect(buildReport([check('fine', 'passed')], facts).verdict).toBe('conforms')
  })
})

describe('finding ids', () => {
  it('stay the same for the same rule, operation and place, whatever the message or the order seen', () => {
    const first = buildReport(
      [check('a', 'failed', [violation('limit', 'query limit', 'listPets', 'GET /pets returned 21 pets.')])],
      facts,
    )
    const again = buildReport(
      [
        check('b', 'passed'),
        check('c', 'failed', [violation('limit', 'query limit', 'listPets', 'GET /pets returned 57 pets.')]),
      ],
      facts,
    )
    expect(first.findings[0]?.id).toMatch(/^limit-[0-9a-f]{8}$/)
    expect(again.findings[0]?.id).toBe(first.findings[0]?.id)
    const elsewhere = buildReport(
      [check('a', 'failed', [violation('limit', 'query limit', 'getPet', 'GET /pets returned 21 pets.')])],
      facts,
    )
    expect(elsewhere.findings[0]?.id).not.toBe(first.findings[0]?.id)
  })

  it('label a policy finding with the switch that turns it off, in every format', () => {
    const report = buildReport(
      [
        check('refuses limit=101 with a 4xx Error', 'failed', [
          violation('invalid-not-refused', 'listPets query limit', 'listPets'),
        ]),
      ],
      facts,
    )
    const [finding] = report.findings
    expect(finding?.kind).toBe('policy')
    expect(finding?.turnOff).toBe('--policy off')
    for (const text of [toConsoleText(report), toMarkdown(report), toJunitXml(report)]) {
      expect(text).toContain('policy')
      expect(text).toContain('--policy off')
    }
  })
})

describe('records broken on the server', () => {
  const record = (rule: Violation['rule'], where: string, ids: string[]): Violation => ({
    ...violation(rule, where, 'listPets'),
    records: ids,
  })

  it('are stored data when only records from before the run break the schema', () => {
    const report = buildReport(
      [check('a', 'failed', [record('stored-record', 'stored records: status must be integer', ['3'])])],
      facts,
    )
    expect(report.findings.map((finding) => [finding.rule, finding.records])).toEqual([
      ['stored-record', ['3']],
    ])
  })

  it('are the code at fault when the run’s own records break the same way: one finding, every id', () => {
    const report = buildReport(
      [
        check('a', 'failed', [record('stored-record', 'stored records: status must be integer', ['3'])]),
        check('b', 'failed', [record('body-schema', 'body /status must be integer', ['41'])]),
      ],
      facts,
    )
    expect(report.findings.map((finding) => [finding.rule, finding.records])).toEqual([
      ['body-schema', ['41', '3']],
    ])
    expect(toJunitXml(report).match(/<failure /g)).toHaveLength(1)
  })
})

/** What the JUnit schema CI test views follow finds wrong with `xml` (none, for a valid file). */
async function junitSchemaErrors(xml: string): Promise<readonly unknown[]> {
  const { validateXML } = await import('xmllint-wasm')
  const schema = readFileSync(new URL('../proof/junit.xsd', import.meta.url), 'utf8')
  const validation = await validateXML({
    xml: [{ fileName: 'junit.xml', contents: xml }],
    schema: [{ fileName: 'junit.xsd', contents: schema }],
  })
  return validation.errors
}

describe('JUnit for CI test views', () => {
  it('fails each finding exactly once, on the check that found it; the others that saw it pass, naming it', async () => {
    const hole = violation('server-error', 'GET /pets answers 5xx', 'listPets')
    const blocker = violation('no-response', 'the server stopped answering', 'createPet')
    const report = buildReport(
      [
        check('first', 'failed', [hole]),
        check('second', 'failed', [hole]),
        check('third', 'blocked', [], blocker),
        check('fine', 'passed'),
      ],
      facts,
    )
    const xml = toJunitXml(report)
    const failures = [...xml.matchAll(/<failure message="([^"]*)"/g)].map((match) => match[1] ?? '')
    expect(failures).toHaveLength(report.findings.length)
    for (const finding of report.findings)
      expect(
        failures.filter((message) => message.startsWith(`${finding.id} [${finding.rule}]`)),
      ).toHaveLength(1)
    expect(xml).toMatch(/name="second">\s*<system-out>affected by server-error-[0-9a-f]{8} \[server-error\]/)
    // The blocking finding no check failed on fails on its own case, under its operation.
    expect(xml).toMatch(
      /classname="animal-store.createPet" name="no-response-[0-9a-f]{8}: the server stopped answering"/,
    )
    expect(await junitSchemaErrors(xml)).toEqual([])
  })

  it('shows why an incomplete run is incomplete: each pending entry without a result is an error', async () => {
    const report = buildReport([check('slow', 'timed-out'), check('fine', 'passed')], {
      ...facts,
      pending: ['the run did not end within --timeout (2 s)', 'g › slow'],
    })
    const xml = toJunitXml(report)
    // The timed-out check is already its own error case: not counted twice.
    expect([...xml.matchAll(/<error /g)]).toHaveLength(2)
    expect(xml).toMatch(
      /name="pending: the run did not end within --timeout \(2 s\)">\s*<error message="incomplete: /,
    )
    expect(xml).toMatch(/<testsuites [^>]* errors="2"/)
    expect(await junitSchemaErrors(xml)).toEqual([])
  })
})

describe('every format is a function of the same report', () => {
  const report = buildReport(
    [
      check('creates <b>"x"</b> & more', 'failed', [
        violation('body-schema', 'body /id must be integer', 'getPet'),
      ]),
    ],
    facts,
  )

  it('writes JUnit XML with every text escaped and control characters shown as escapes', () => {
    const withControl = buildReport([check('nul \u0000 here', 'passed')], facts)
    expect(toJunitXml(withControl)).toContain('name="nul \\x00 here"')
    const xml = toJunitXml(report)
    expect(xml).toContain('name="creates &lt;b&gt;&quot;x&quot;&lt;/b&gt; &amp; more"')
    expect(xml).toContain('failures="1"')
    expect(xml).toContain('seed 42')
  })

  it('writes Markdown with the findings table, what the run created and the seed', () => {
    const markdown = toMarkdown(report)
    const [finding] = report.findings
    // `where` can hold a server's JSON keys: it sits in a code span.
    expect(markdown).toContain(
      `| 1 | ${finding?.id} | body-schema | contract | \`body /id must be integer\` | getPet | 1 | fails |`,
    )
    expect(markdown).toContain('Created 3 pets on the target, named "conformance-abc …"')
    expect(markdown).toContain('seed 42')
  })

  it('prints findings first, then what was created and the verdict line', () => {
    const text = toConsoleText(report)
    expect(text).toMatch(
      /✗ #1 body-schema-[0-9a-f]{8} \[body-schema\] body \/id must be integer — on getPet; seen by 1 check/,
    )
    expect(text.trimEnd().split('\n').at(-1)).toMatch(
      /^DOES NOT CONFORM: 1 finding, 0 checks passed, 1 check affected by 1 finding, 0 warnings$/,
    )
  })
})

describe('the totals line', () => {
  it('agrees each count with its noun: 1 check, 1 warning, 2 checks', () => {
    const one = buildReport(
      [{ ...check('fine', 'passed'), warnings: ['a status the contract allows'] } as CheckResult],
      facts,
    )
    expect(toConsoleText(one)).toMatch(/CONFORMS: 0 findings, 1 check passed, 1 warning$/m)
    const two = buildReport([check('a', 'passed'), check('b', 'passed')], facts)
    expect(toMarkdown(two)).toContain('0 findings, 2 checks passed, 0 warnings')
  })
})

describe('a server that wrote responses nobody asked for', () => {
  const desync = {
    connections: [7],
    count: 1,
    first: { bytes: 83, statusLine: 'HTTP/1.1 200 OK', how: 'idle' as const },
  }
  const on = (result: CheckResult, ...connections: number[]) =>
    ({ ...result, connections: connections.map((connection) => [connection, 'listPets']) }) as CheckResult

  it('blocks every check that read an answer on a desynced connection, and reports the desync once', () => {
    const keyless = violation('auth', 'no credentials', 'listPets')
    const report = buildReport(
      [
        on(check('refuses no credentials', 'failed', [keyless]), 3, 7),
        on(check('lists pets', 'passed'), 7),
        check('needs the keyless check', 'blocked', [], keyless),
        on(check('reads one pet', 'passed'), 4),
      ],
      { ...facts, desync },
    )
    expect(report.checks.map((one) => one.outcome)).toEqual(['blocked', 'blocked', 'blocked', 'passed'])
    expect(report.findings.map((finding) => [finding.rule, finding.blocked.length])).toEqual([
      ['unsolicited-response', 3],
    ])
    expect(report.findings[0]?.message).toContain('83 bytes nobody asked for')
    expect(report.verdict).toBe('does-not-conform')
  })

  it('keeps a finding a check saw on a connection of its own', () => {
    const keyless = violation('auth', 'no credentials', 'listPets')
    const report = buildReport(
      [on(check('spoiled', 'failed', [keyless]), 7), on(check('trusted', 'failed', [keyless]), 4)],
      { ...facts, desync },
    )
    expect(report.findings.map((finding) => finding.rule).sort()).toEqual(['auth', 'unsolicited-response'])
  })

  it('reports the desync even when no check read an answer on that connection', () => {
    const report = buildReport([on(check('lists pets', 'passed'), 4)], { ...facts, desync })
    expect(report.findings.map((finding) => finding.rule)).toEqual(['unsolicited-response'])
    expect(report.checks.map((one) => one.outcome)).toEqual(['passed'])
  })

  it('names the request whose answer the bytes followed on that connection', () => {
    const after = { ...desync, first: { ...desync.first, after: 'GET /v1/pets?limit=2' } }
    const report = buildReport([on(check('lists pets', 'passed'), 7)], { ...facts, desync: after })
    expect(report.findings[0]?.message).toContain(
      '83 bytes nobody asked for on an idle kept-alive connection, starting "HTTP/1.1 200 OK", after its answer to GET /v1/pets?limit=2.',
    )
  })

  it('never writes which connection an answer came on into the report', () => {
    const report = buildReport([on(check('lists pets', 'passed'), 4)], facts)
    expect(JSON.stringify(report)).not.toContain('connections')
  })
})
