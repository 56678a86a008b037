import SwaggerParser from '@apidevtools/swagger-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningPrism, startPrism } from '../mocks/prism/start-prism.ts'
import { contractPath } from './contract-path.ts'

// The contract as other tools load it. An operation without `responses` (legal in OpenAPI 3.1) broke
// Dredd, Mockoon's import, orval's zod generator and openapi-backend, and Prism answered it with a 500;
// a server variable with a `description` broke swagger-parser, which orval and others bundle.
describe('the contract in common OpenAPI tools', () => {
  it('validates with @apidevtools/swagger-parser, every operation with at least one response', async () => {
    const api = await SwaggerParser.validate(contractPath)
    const operations = Object.entries(api.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item ?? {})
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path}`, operation })),
    )
    expect(operations.map(({ at }) => at)).toContain('GET /store/orders')
    for (const { at, operation } of operations)
      expect(Object.keys((operation as { responses?: object }).responses ?? {}), at).not.toHaveLength(0)
  })

  describe('Prism’s mock (the real binary)', () => {
    let prism: RunningPrism
    beforeAll(async () => {
      prism = await startPrism({ mode: 'mock', logLevel: 'error' })
    }, 60_000)
    afterAll(async () => {
      await prism?.stop()
    })

    it('answers GET /store/orders with a key without a 500', async () => {
      // Prism ignores the /v1 of servers[].url: it serves /store/orders.
      const response = await fetch(`${prism.url}/store/orders`, {
        headers: { authorization: 'Bearer any-key' },
      })
      await response.arrayBuffer()
      expect(response.status).toBeLessThan(500)
    })

    it('still asks for the key on GET /store/orders (401 without one)', async () => {
      const response = await fetch(`${prism.url}/store/orders`)
      await response.arrayBuffer()
      expect(response.status).toBe(401)
    })
  })
})
