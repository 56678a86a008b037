import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contract } from '../../contract/index.ts'
import { type RunningPrism, startPrism } from './start-prism.ts'

// Starts the real Prism binary (a separate process on a real socket) on contract/openapi.yaml.
describe('Prism loads the contract and answers from it', () => {
  let prism: RunningPrism
  beforeAll(async () => {
    prism = await startPrism({ mode: 'mock' })
  })
  afterAll(() => prism?.stop())

  it('answers GET /pets with a body valid against Pets', async () => {
    const response = await fetch(`${prism.url}/pets`, { headers: { authorization: 'Bearer any-key' } })
    expect(response.status).toBe(200)
    expect(contract.validateResponseBody('listPets', 200, await response.json())).toMatchObject({ ok: true })
  })

  it('answers 401 with an Error when the bearer key is missing', async () => {
    const response = await fetch(`${prism.url}/pets`)
    expect(response.status).toBe(401)
    expect(contract.validateResponseBody('listPets', 401, await response.json())).toMatchObject({ ok: true })
  })

  it('answers POST /pets with a Pet for a valid NewPet', async () => {
    const response = await fetch(`${prism.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer any-key', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    })
    expect(response.status).toBe(201)
    expect(contract.validateResponseBody('createPet', 201, await response.json())).toMatchObject({ ok: true })
  })
})
