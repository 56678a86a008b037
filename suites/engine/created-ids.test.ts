import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createCheckContext, createRunState } from './check-context.ts'

// 2^53 + 1: exact only as a bigint.
const bigId = '9007199254740993'

/**
 * A server that stores whatever it is sent and answers the create only once a list has shown the pet, so
 * the list is judged while the create is still in flight.
 */
async function lenientServer() {
  const stored: string[] = []
  let heldCreate: ServerResponse | undefined
  let storedOne: () => void = () => {}
  const created = new Promise<void>((resolve) => {
    storedOne = resolve
  })
  const json = (response: ServerResponse, status: number, text: string) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(text)
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      if (request.method === 'POST') {
        // The sent fields as they came, name included: no schema.
        stored.push(`{"id":${bigId},${body.trim().slice(1)}`)
        heldCreate = response
        storedOne()
        return
      }
      const shown = request.url === '/v1/pets' && heldCreate ? `[${stored.join(',')}]` : '[]'
      json(response, 200, shown)
      if (shown !== '[]' && heldCreate) {
        const create = heldCreate
        heldCreate = undefined
        response.on('finish', () => json(create, 201, stored[0] ?? '{}'))
      }
    })
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    created,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  }
}

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

describe('pets the run created itself', () => {
  it('counts an invalid create answered 201 as the run’s, before a read judged beside it concludes', async () => {
    const server = await lenientServer()
    close = server.close
    const run = createRunState({
      baseUrl: server.baseUrl,
      apiKey: 'key',
      readOnly: false,
      requestTimeoutMs: 10_000,
      maxResponseBytes: 1_000_000,
      runDeadline: Date.now() + 60_000,
      namePrefix: 'created-ids',
      seed: 1,
      maxExamples: 1,
    })
    const context = createCheckContext(run)
    const create = context.send('createPet', {
      intent: 'invalid',
      fault: 'body /name',
      body: '{"name":123,"categoryId":1,"status":"available"}',
    })
    await server.created
    const list = await context.send('listPets', { intent: 'valid' })
    const accepted = await create

    expect(accepted.violations.map((violation) => violation.rule)).toContain('invalid-accepted')
    expect(list.violations.map((violation) => violation.rule)).not.toContain('stored-record')
    expect(list.violations.map((violation) => violation.message).join('\n')).not.toContain(
      'stored before this run',
    )
    expect(list.affectedBy?.rule).toBe('invalid-accepted')
    expect([...run.created.ids]).toEqual([BigInt(bigId)])
    expect(run.created.count).toBe(1)
    expect(run.transport.createdIds.has(bigId)).toBe(true)
  })
})
