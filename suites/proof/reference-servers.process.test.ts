import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runConformanceInThread } from './conformance-in-thread.ts'
import { sendRaw } from './raw-http.ts'
import { referenceServers } from './reference-servers.ts'
import type { StartedServer } from './serve-reference.ts'

// Correct servers in styles unlike our mock, each on a real socket, checked by a whole run in every mode.
// A finding here is the suite assuming something the contract leaves open: never a reason to bend the server.
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
    const ids = [...answer.text.matchAll(/"id": ?(\d+)/g)].map((match) => BigInt(match[1] ?? 0))
    expect(ids.length).toBe(3)
    expect(ids.every((id) => id > 1000n)).toBe(true)
    if (settings.ids === 'random-63-bit') expect(ids.some((id) => id > 2n ** 53n)).toBe(true)
    // Asked for no coding, sent none; asked for one, it compresses (which the suite then has to decode).
    expect(answer.headers['content-encoding']).toBeUndefined()
    if (settings.pretty) expect(answer.text).toMatch(/^\[\n {2}\{\n {4}"id": /)
    if (settings.selfLinks)
      expect([answer.headers['content-location'], answer.headers.link]).toEqual([
        '/v1/pets?limit=3',
        '</v1/pets?limit=3>; rel="self"',
      ])
    if (settings.compress) {
      const codings = new Set<string | undefined>()
      for (let turn = 0; turn < 3; turn++) {
        const compressed = await sendRaw(new URL(server.baseUrl).origin, {
          method: 'GET',
          path: '/v1/pets?limit=3',
          headers: { authorization: `Bearer ${server.apiKey}`, 'accept-encoding': 'gzip, deflate, br' },
        })
        codings.add(compressed.headers['content-encoding'])
      }
      expect([...codings].sort()).toEqual(['br', 'deflate', 'gzip'])
    }
    if (settings.etags) {
      const etag = answer.headers.etag ?? ''
      expect(etag).toMatch(/^W\/".+"$/)
      const again = await sendRaw(new URL(server.baseUrl).origin, {
        method: 'GET',
        path: '/v1/pets?limit=3',
        headers: { authorization: `Bearer ${server.apiKey}`, 'if-none-match': etag },
      })
      expect([again.status, again.text, again.headers.etag]).toEqual([304, '', etag])
    }
  })

  it.each([
    ['writing', {}],
    ['read-only', { readOnly: true }],
    ['through Prism', { viaPrism: true }],
  ])(`conforms, %s (seed ${seed})`, async (name, mode) => {
    const { code, output, report } = await runConformanceInThread({
      baseUrl: server.baseUrl,
      apiKey: server.apiKey,
      seed: Number(seed),
      ...mode,
    })
    expect(
      report?.findings.map((finding) => `${finding.rule}: ${finding.message}`),
      output,
    ).toEqual([])
    expect(code, output).toBe(0)
    // A server whose ids Prism would round is checked directly, and the report says so.
    if (name === 'through Prism')
      expect(report?.target.viaPrism, output).toBe(reference.roundedByPrism === undefined)
    if (name === 'through Prism' && reference.roundedByPrism !== undefined)
      expect(report?.limitations.join(' ')).toMatch(/Asked for --via-prism.*went straight to the server/)
  })
})
