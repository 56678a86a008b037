import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { ContractError, contract } from './index.ts'

const validPet = { id: 7, name: 'Rex', categoryId: 3, status: 'available' }

it('holds a document whose schemas are valid JSON Schema 2020-12 (the loader skips this check at start-up)', () => {
  const ajv = new Ajv2020({ strict: false })
  expect(ajv.validateSchema(contract.document as object), ajv.errorsText()).toBe(true)
  for (const [name, schema] of Object.entries(contract.document.components?.schemas ?? {})) {
    expect(ajv.validateSchema(schema as object), `${name}: ${ajv.errorsText()}`).toBe(true)
  }
})

describe('the loader validates against the contract', () => {
  it('accepts a valid Pet and hands it back', () => {
    expect(contract.validateSchema('Pet', validPet)).toEqual({ ok: true, value: validPet })
  })

  it('accepts a Pet without the optional status', () => {
    expect(contract.validateSchema('Pet', { id: 1, name: 'Rex', categoryId: 3 }).ok).toBe(true)
  })

  it('rejects an invalid Pet with messages that name each field', () => {
    const result = contract.validateSchema('Pet', { id: 1.5, categoryId: '3', status: 'lost' })
    expect(result.ok).toBe(false)
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual([
      '/name is required',
      '/categoryId must be integer',
      '/status must be one of available, pending, sold',
      '/id must be integer',
    ])
  })

  it('rejects a Pet without id, since the service always assigns one', () => {
    const result = contract.validateSchema('Pet', { name: 'Rex', categoryId: 3 })
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual(['/id is required'])
  })

  it('takes every int64, from -2^63 to 2^63-1, read exactly, and refuses integers beyond it', () => {
    const body = (categoryId: unknown) =>
      contract.validateRequestBody('createPet', { name: 'Rex', categoryId })
    for (const valid of [2n ** 53n + 1n, 10n ** 18n, 2n ** 63n - 1n, -(2n ** 63n), 2 ** 53 - 1, 2 ** 60])
      expect(body(valid)).toEqual({ ok: true, value: { name: 'Rex', categoryId: valid } })
    for (const beyond of [2n ** 63n, -(2n ** 63n) - 1n, 2n ** 64n, 1e300]) {
      const result = body(beyond)
      expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual([
        '/categoryId must be an int64 from -9223372036854775808 to 9223372036854775807',
      ])
    }
  })

  it('names the whole body when the body is not an object', () => {
    const result = contract.validateRequestBody('createPet', ['Rex'])
    expect(result).toEqual({ ok: false, errors: [{ at: '', message: 'body must be object' }] })
  })

  it('validates response bodies by operation and status', () => {
    expect(contract.validateResponseBody('listPets', 200, [validPet]).ok).toBe(true)
    expect(contract.validateResponseBody('listPets', 200, { pets: [validPet] }).ok).toBe(false)
    expect(contract.validateResponseBody('getPet', 404, { code: 'x', message: 'gone', status: 404 }).ok).toBe(
      true,
    )
    expect(contract.validateResponseBody('getPet', '404', { message: 'gone' }).ok).toBe(false)
  })

  it('keeps extra fields of an Error, which are the server’s own', () => {
    expect(
      contract.validateResponseBody('listPets', 401, { code: 'a', message: 'b', status: 401, hint: 'c' }).ok,
    ).toBe(true)
  })

  it('throws a ContractError naming the operations when asked for an unknown one', () => {
    expect(() => contract.operation('deletePet')).toThrow(ContractError)
    expect(() => contract.operation('deletePet')).toThrow(/listPets, createPet, getPet/)
  })

  it('throws a ContractError when asked for a status the operation does not declare', () => {
    expect(() => contract.validateResponseBody('listPets', 404, {})).toThrow(
      /declares no JSON body for listPets 404/,
    )
  })
})

describe('the loader parses raw parameters by their schema', () => {
  const cases: [string, string, string, unknown][] = [
    ['listPets', 'limit', '20', 20],
    ['listPets', 'limit', '1', 1],
    ['listPets', 'limit', '100', 100],
    ['listPets', 'status', 'sold', 'sold'],
    ['getPet', 'petId', '9007199254740991', 9007199254740991],
    ['getPet', 'petId', '9223372036854775807', 9223372036854775807n],
    ['getPet', 'petId', '-9223372036854775808', -9223372036854775808n],
    ['getPet', 'petId', '-3', -3],
  ]
  it.each(cases)('%s %s=%s parses to %o', (operationId, name, raw, value) => {
    const location = name === 'petId' ? 'path' : 'query'
    expect(contract.parseParameter(operationId, location, name, raw)).toEqual({ ok: true, value })
  })

  const refused: [string, string, string, string][] = [
    ['listPets', 'limit', '0', 'query parameter "limit" must be >= 1'],
    ['listPets', 'limit', '101', 'query parameter "limit" must be <= 100'],
    ['listPets', 'limit', '1.5', 'query parameter "limit" must be integer'],
    ['listPets', 'limit', 'ten', 'query parameter "limit" must be integer'],
    ['listPets', 'limit', '', 'query parameter "limit" must be integer'],
    ['listPets', 'status', 'lost', 'query parameter "status" must be one of available, pending, sold'],
    ['getPet', 'petId', 'abc', 'path parameter "petId" must be integer'],
    ['getPet', 'petId', '99999999999999999999', 'path parameter "petId" must be an int64 from'],
    ['getPet', 'petId', '9223372036854775808', 'path parameter "petId" must be an int64 from'],
  ]
  it.each(refused)('%s %s=%s is refused: %s', (operationId, name, raw, message) => {
    const location = name === 'petId' ? 'path' : 'query'
    const result = contract.parseParameter(operationId, location, name, raw)
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.errors[0]?.message).toContain(message)
    expect(result.ok ? '' : result.errors[0]?.at).toBe(name)
  })
})
