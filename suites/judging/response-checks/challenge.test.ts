import { describe, expect, it } from 'vitest'
import { contract } from '../../../contract/index.ts'
import type { Exchange } from '../exchange.ts'
import type { Recorder } from '../recorder.ts'
import { offeredSchemes } from './challenge.ts'
import { judgeResponse } from './index.ts'

const unauthorized = JSON.stringify({ code: 'unauthorized', message: 'Send the key.', status: 401 })

/** The rules a 401 to listPets without a key breaks, given its WWW-Authenticate (none when undefined). */
function rulesOf401(challenge: string | undefined, status = 401): string[] {
  const exchange: Exchange = {
    operation: 'listPets',
    request: { method: 'GET', url: 'http://127.0.0.1:1/v1/pets', headers: {} },
    response: {
      status,
      headers: {
        'content-type': 'application/json',
        ...(challenge === undefined ? {} : { 'www-authenticate': challenge }),
      },
      body: status === 401 ? unauthorized : '[]',
    },
    violations: [],
    bodyUsable: true,
  }
  const recorder: Recorder = { exchanges: [], warnings: [], advice: [], notes: [], seen: new Set() }
  judgeResponse(exchange, contract.operation('listPets'), { intent: 'unauthorized' }, recorder, {
    storedWrong: new Map(),
    createdIds: new Set(),
  })
  return exchange.violations.map((violation) => `${violation.rule}: ${violation.where}`)
}

describe('the challenge of a 401', () => {
  it.each([
    'Bearer',
    'bearer',
    'Bearer realm="animal-store", error="invalid_token"',
    'Basic realm="legacy", Bearer',
    'Bearer realm="a, Basic b"',
  ])('passes %s, which offers the bearer scheme the contract declares', (challenge) => {
    expect(rulesOf401(challenge)).toEqual([])
  })

  it('reports a Basic challenge, which makes browsers ask for a password', () => {
    expect(rulesOf401('Basic realm="Realm"')).toEqual(['wrong-challenge: 401 challenges do not offer Bearer'])
  })

  it('does not take a scheme named inside a quoted realm or as a parameter for one offered', () => {
    expect(rulesOf401('Basic realm="Bearer", Bearer=1')).toEqual([
      'wrong-challenge: 401 challenges do not offer Bearer',
    ])
  })

  it('reports a 401 without a challenge, which RFC 9110 §11.6.1 requires', () => {
    expect(rulesOf401(undefined)).toEqual([
      'wrong-challenge: 401 answers carry no WWW-Authenticate challenge',
    ])
  })

  it('judges no other status', () => {
    expect(rulesOf401(undefined, 403)).toEqual(['auth: requests without a valid key'])
  })

  it('reads every scheme of a list of challenges, and none from parameters or token68', () => {
    expect(
      offeredSchemes(
        'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple", Token abc==',
      ),
    ).toEqual(['newauth', 'basic', 'token'])
  })
})
