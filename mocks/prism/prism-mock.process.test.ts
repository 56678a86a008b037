import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contract } from '../../contract/index.ts'
import { findFreePort } from '../local-port.ts'
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

describe('npm run mock:prism', () => {
  it('passes --dynamic and --seed through: generated bodies, valid and repeatable', async () => {
    const port = await findFreePort()
    const script = fileURLToPath(new URL('../../scripts/prism-mock.ts', import.meta.url))
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', script, '--port', String(port), '--dynamic', '--seed', '42'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    try {
      await new Promise<void>((resolve, reject) => {
        let output = ''
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk
          if (output.includes('Prism mock of the Animal Store contract')) resolve()
        })
        child.once('exit', (code) => reject(new Error(`prism-mock exited (${code}): ${output}`)))
      })
      const list = async () =>
        (await fetch(`http://127.0.0.1:${port}/pets`, { headers: { authorization: 'Bearer any' } })).json()
      const [first, second] = [await list(), await list()]
      expect(contract.validateResponseBody('listPets', 200, first)).toMatchObject({ ok: true })
      expect(second).toEqual(first)
      // Static answers are Prism's placeholder "string"; dynamic ones are generated from the schema.
      expect(JSON.stringify(first)).not.toContain('"name":"string"')
    } finally {
      child.kill('SIGTERM')
    }
  })
})
