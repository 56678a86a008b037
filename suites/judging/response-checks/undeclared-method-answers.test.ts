import { describe, expect, it } from 'vitest'
import { contract } from '../../../contract/index.ts'
import type { Exchange } from '../exchange.ts'
import type { Recorder } from '../recorder.ts'
import { judgeResponse } from './index.ts'

const errorOf = (status: number) => JSON.stringify({ code: 'refused', message: 'Use GET, POST.', status })

function judged(method: string, status: number, body: string, contentType = 'application/json'): Exchange {
  const exchange: Exchange = {
    operation: 'listPets',
    request: { method, url: 'http://127.0.0.1:1/v1/pets', headers: {} },
    response: {
      status,
      // A 401 carries its challenge (RFC 9110 §11.6.1), judged on its own (challenge.test.ts).
      headers: { 'content-type': contentType, ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) },
      body,
    },
    violations: [],
    bodyUsable: true,
  }
  const recorder: Recorder = { exchanges: [], warnings: [], advice: [], notes: [], seen: new Set() }
  judgeResponse(
    exchange,
    contract.operation('listPets'),
    { intent: 'unsupported-method', method },
    recorder,
    {
      storedWrong: new Map(),
      createdIds: new Set(),
    },
  )
  return exchange
}

const rulesOf = (exchange: Exchange) => exchange.violations.map((violation) => violation.rule)

describe('the answer to a method the contract does not declare', () => {
  it.each([404, 405, 501])('takes %i with an Error as a refusal', (status) => {
    expect(rulesOf(judged('DELETE', status, errorOf(status)))).toEqual([])
  })

  it('holds a refusal’s body to the Error schema', () => {
    expect(rulesOf(judged('PUT', 405, 'Method Not Allowed', 'text/plain'))).toEqual(['content-type'])
  })

  it('reports any 5xx but 501 as a server error', () => {
    expect(rulesOf(judged('DELETE', 503, errorOf(503)))).toEqual(['server-error'])
  })

  it('leaves a 2xx to the check, which knows whether it was served without a key or changed data', () => {
    const exchange = judged('DELETE', 200, '{"deleted":3000}')
    expect(rulesOf(exchange)).toEqual([])
    expect(exchange.bodyUsable).toBe(true)
  })

  it('judges no body on a HEAD answer, which has none', () => {
    expect(rulesOf(judged('HEAD', 401, ''))).toEqual([])
  })

  it('reports a stack trace in a server error as a leak of its own', () => {
    const body = 'Error: boom\n    at remove (/srv/app/routes/pets.js:17:9)'
    expect(rulesOf(judged('DELETE', 500, body, 'text/plain'))).toEqual(['server-error', 'leaked-internals'])
  })
})
