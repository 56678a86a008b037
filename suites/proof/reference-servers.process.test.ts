import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runConformanceCommand } from '../conformance-command.ts'
import { sendRaw } from './raw-http.ts'
import { referenceServers } from './reference-servers.ts'
import type { StartedServer } from './serve-reference.ts'

// Correct servers in styles unlike our mock, each on a real socket, checked by the command users run, in
// every mode. A finding here is the suite assuming something the contract leaves open: never a reason to
// bend the server.
const seed = process.env.PROOF_SEED ?? '7'

describe.each(referenceServers.map((server) => [server.name, server] as const))('%s', (_, reference) => {
  let server: StartedServer
  beforeAll(async () => {
    server = await reference.start()
  })
  afterAll(() => server?.close())

  it('really has its style (so passing it proves something)', async () => {
    const answer = await sendRaw(new URL(server.baseUrl).origin, {
      method: 'GET',
      path: '/v1/pets?limit=3',
      headers: { authorization: `Bearer ${server.apiKey}` },
    })
    expect(answer.status).toBe(200)
    const { settings } = reference
    expect(answer.headers['content-type']).toBe(settings.contentType)
    expect(answer.headers.connection).toBe(settings.connectionClose ? 'close' : 'keep-alive')
    expect(answer.headers['transfer-encoding']).toBe(settings.chunked ? 'chunked' : undefined)
    expect((answer.json as { id: number }[]).every((pet) => pet.id > 1000)).toBe(true)
  })

  it.each([
    ['writing', []],
    ['read-only', ['--read-only']],
    ['through Prism', ['--via-prism']],
  ])(`conforms, %s (seed ${seed})`, async (_, mode) => {
    const { code, output, report } = await runConformanceCommand(
      ['--base-url', server.baseUrl, '--seed', seed, ...mode],
      { env: { CONFORMANCE_API_KEY: server.apiKey } },
    )
    expect(
      report?.findings.map((finding) => `${finding.rule}: ${finding.message}`),
      output,
    ).toEqual([])
    expect(code, output).toBe(0)
  })
})
