import { describe, expect, it } from 'vitest'
import { contract } from '../../../contract/index.ts'
import type { Received } from '../../network/index.ts'
import type { Exchange } from '../exchange.ts'
import { groupFindings } from '../findings.ts'
import type { Recorder } from '../recorder.ts'
import { judgeResponse } from './index.ts'

const recorder = (): Recorder => ({ exchanges: [], warnings: [], advice: [], notes: [], seen: new Set() })

/** Judges one answer to a valid request of `operationId`, as the engine does, and returns the exchange. */
function judged(operationId: string, response: Received): Exchange {
  const operation = contract.operation(operationId)
  const exchange: Exchange = {
    operation: operationId,
    request: { method: operation.method, url: `http://127.0.0.1:1/v1${operation.path}`, headers: {} },
    response,
    violations: [],
    bodyUsable: true,
  }
  const body = operationId === 'createPet' ? '{"name":"Rex","categoryId":2,"status":"sold"}' : undefined
  judgeResponse(exchange, operation, { intent: 'valid', ...(body ? { body } : {}) }, recorder(), {
    storedWrong: new Map(),
    // Pet 7 is one the run created: a broken one is its body's finding, not a record stored before.
    createdIds: new Set(['7']),
  })
  return exchange
}

const json = { 'content-type': 'application/json' }
const typeIdFirst = '{"status":"SoldPet","id":7,"name":"Rex","categoryId":2,"status":"sold"}'

describe('member names given twice in a body', () => {
  it('is a finding naming the operation, the member and where it is, the value read as the suite read it', () => {
    const exchange = judged('getPet', {
      status: 200,
      headers: json,
      body: typeIdFirst,
      duplicateMember: { name: 'status', at: '/status' },
    })
    expect(exchange.violations).toHaveLength(1)
    expect(exchange.violations[0]).toMatchObject({
      rule: 'duplicate-member',
      operation: 'getPet',
      where: 'response bodies name the member "status" twice in one object',
    })
    expect(exchange.violations[0]?.message).toMatch(
      /^GET \/pets\/\{petId\} 200 body names the member "status"/,
    )
    expect(exchange.violations[0]?.message).toContain('(at /status)')
    // The last value, as JSON.parse reads it, is the one the other checks judge: a valid Pet.
    expect(exchange.bodyUsable).toBe(true)
    expect(exchange.json).toEqual({ status: 'sold', id: 7, name: 'Rex', categoryId: 2 })
  })

  it('is one finding however many operations, statuses and list items show it', () => {
    const exchanges = [
      judged('createPet', {
        status: 201,
        headers: json,
        body: typeIdFirst,
        duplicateMember: { name: 'status', at: '/status' },
      }),
      judged('listPets', {
        status: 200,
        headers: json,
        body: `[{"id":1,"name":"a","categoryId":1},${typeIdFirst}]`,
        duplicateMember: { name: 'status', at: '/1/status' },
      }),
      judged('getPet', {
        status: 200,
        headers: json,
        body: typeIdFirst,
        duplicateMember: { name: 'status', at: '/status' },
      }),
    ]
    const findings = groupFindings(
      exchanges.map((exchange, index) => ({ name: `check ${index}`, violations: exchange.violations })),
    )
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({
      rule: 'duplicate-member',
      kind: 'policy',
      turnOff: '--policy off',
      operations: ['createPet', 'listPets', 'getPet'],
    })
  })

  it('comes after the root causes other checks report, and leaves their verdicts as they were', () => {
    // A name that is a number in the last value read: the schema finding stays the first violation.
    const exchange = judged('getPet', {
      status: 200,
      headers: json,
      body: '{"id":7,"name":"Rex","categoryId":2,"name":5}',
      duplicateMember: { name: 'name', at: '/name' },
    })
    expect(exchange.violations.map((violation) => violation.rule)).toEqual([
      'body-schema',
      'duplicate-member',
    ])
    // A wrong status stops the judging there, as before.
    const refused = judged('getPet', {
      status: 500,
      headers: json,
      body: '{"code":"x","code":"y","message":"m","status":500}',
      duplicateMember: { name: 'code', at: '/code' },
    })
    expect(refused.violations.map((violation) => violation.rule)).toEqual(['server-error'])
  })

  it('judges no repeat in a body that is not JSON: that body is one finding, as before', () => {
    const exchange = judged('getPet', {
      status: 200,
      headers: json,
      body: '{"id":7,"id":8,',
      duplicateMember: { name: 'id', at: '/id' },
    })
    expect(exchange.violations.map((violation) => violation.rule)).toEqual(['body-schema'])
  })

  it('finds nothing in a body that names each member once', () => {
    const exchange = judged('getPet', {
      status: 200,
      headers: json,
      body: '{"id":7,"name":"Rex","categoryId":2}',
    })
    expect(exchange.violations).toEqual([])
  })
})
