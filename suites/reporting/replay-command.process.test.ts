import { execFile } from 'node:child_process'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Exchange } from '../judging/exchange.ts'
import { replayCommand } from '../judging/replay-command.ts'
import { nearMissCredentials } from '../values/near-miss-credentials.ts'

// A finding's replay command, pasted into a real shell (sh, then bash) and sent by the real curl to a
// server on 127.0.0.1: the server must receive the very request the suite sent, and the command's text
// must not hold the key in any spelling the auth checks derive from it.
const apiKey = 'Secret-Key-42xyz'

interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}
let received: Received[] = []
const server = createServer((request, response) => {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    })
    response.end('{}')
  })
})
let origin = ''

beforeAll(async () => {
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((closed) => server.close(() => closed())))

function runIn(shell: 'sh' | 'bash', command: string): Promise<Received> {
  received = []
  return new Promise((resolve, reject) =>
    execFile(
      shell,
      ['-c', command],
      { env: { PATH: process.env.PATH, CONFORMANCE_API_KEY: apiKey }, timeout: 15_000 },
      (error, _stdout, stderr) => {
        if (error) return reject(new Error(`${shell} could not run the replay: ${stderr}\n${command}`))
        const [one, ...more] = received
        if (!one || more.length > 0)
          return reject(new Error(`expected one request, got ${received.length}:\n${command}`))
        resolve(one)
      },
    ),
  )
}

const request = (overrides: Partial<Exchange['request']>): Exchange['request'] => ({
  method: 'GET',
  url: `${origin}/v1/pets?limit=1`,
  headers: { accept: 'application/json', authorization: `Bearer ${apiKey}` },
  ...overrides,
})

describe('a replay command sends the request again without printing the key', () => {
  const credentials = nearMissCredentials(apiKey).filter(
    (credential): credential is { label: string; authorization: string } => credential.authorization !== null,
  )

  it.each(['sh', 'bash'] as const)(
    'sends every near-miss credential byte for byte through %s',
    async (shell) => {
      for (const { label, authorization } of credentials) {
        const command = replayCommand(request({ headers: { authorization } }), { baseUrl: origin, apiKey })
        for (const form of [apiKey, apiKey.toUpperCase(), apiKey.toLowerCase(), apiKey.slice(0, -1)])
          expect(command, label).not.toContain(form)
        const got = await runIn(shell, command)
        expect(got.headers.authorization, `${label}:\n${command}`).toBe(authorization.trim())
      }
    },
  )

  it('keeps quotes, dollars, backticks, newlines and a NUL byte in the body, and the path as sent', async () => {
    const body = `{"name":"it's $HOME \`id\` \\"q\\"\n%s %%","x":"\u0000"}`
    const command = replayCommand(
      request({
        method: 'POST',
        url: `${origin}/v1/pets/./%2D1/../x?limit=1&limit=[2]`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body,
      }),
      { baseUrl: origin, apiKey },
    )
    const got = await runIn('sh', command)
    expect(got).toMatchObject({ method: 'POST', url: '/v1/pets/./%2D1/../x?limit=1&limit=[2]', body })
    expect(got.headers['content-type']).toBe('application/json')
  })

  it('replays a request sent through Prism against the server itself', async () => {
    const prismUrl = 'http://127.0.0.1:9'
    const command = replayCommand(request({ url: `${prismUrl}/pets?limit=1` }), {
      baseUrl: `${origin}/v1`,
      apiKey,
      prismUrl,
    })
    expect((await runIn('sh', command)).url).toBe('/v1/pets?limit=1')
  })
})
