import { describe, expect, it } from 'vitest'
import type { Exchange } from '../judging/index.ts'
import { noteCreate, type RefusedCreates } from './refused-creates.ts'

const answered = (status: number) => ({ response: { status } }) as Exchange
const fresh = (): RefusedCreates => ({ runId: 'run-1', byName: new Map(), accepted: new Set() })

describe('the refused creates a run remembers', () => {
  it('keeps a refused body by the run-tagged name it carried, and a name some create was accepted with', () => {
    const refused = fresh()
    noteCreate(
      refused,
      { intent: 'invalid', body: '{"name":"run-1 refused 3","status":"SOLD"}' },
      answered(400),
    )
    noteCreate(
      refused,
      { intent: 'unauthorized', body: '{"name":"run-1 unauthorized, a wrong key"}' },
      answered(401),
    )
    noteCreate(refused, { intent: 'valid', body: '{"name":"run-1 value","categoryId":-1}' }, answered(400))
    noteCreate(refused, { intent: 'valid', body: '{"name":"run-1 value","categoryId":1}' }, answered(201))
    expect([...refused.byName.keys()]).toEqual([
      'run-1 refused 3',
      'run-1 unauthorized, a wrong key',
      'run-1 value',
    ])
    expect([...refused.accepted]).toEqual(['run-1 value'])
  })

  it('reads the name from bodies that are not one JSON object, as a lax parser would store them', () => {
    const refused = fresh()
    noteCreate(
      refused,
      { intent: 'invalid', body: '[{"name":"run-1 refused 38","categoryId":1}]' },
      answered(400),
    )
    noteCreate(
      refused,
      { intent: 'invalid', body: '{"name":"run-1 refused 43","categoryId":1} x' },
      answered(400),
    )
    noteCreate(
      refused,
      { intent: 'invalid', body: '{"name":"run-1 \\"quoted\\"","categoryId":1' },
      answered(400),
    )
    expect([...refused.byName.keys()]).toEqual(['run-1 refused 38', 'run-1 refused 43', 'run-1 "quoted"'])
  })

  it('ignores names without the run id, names that are not strings, and answers that are not refusals', () => {
    const refused = fresh()
    noteCreate(refused, { intent: 'invalid', body: '{"name":"conformance","categoryId":"1"}' }, answered(400))
    noteCreate(refused, { intent: 'invalid', body: '{"name":123,"categoryId":1}' }, answered(400))
    noteCreate(refused, { intent: 'invalid', body: '{"name":"run-1 refused 2"}' }, answered(500))
    noteCreate(refused, { intent: 'invalid', body: '{"name":"run-10 refused 2"}' }, answered(400))
    expect(refused.byName.size).toBe(0)
  })
})
