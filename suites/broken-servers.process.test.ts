import { afterAll, describe, expect, it } from 'vitest'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { brokenServerKey, brokenServers } from './broken-servers.ts'
import { runChecks } from './run-checks.ts'

// Each broken server is served on a real socket (the suite speaks undici, which MSW cannot intercept),
// and the whole suite runs against it. Every one must be caught: a survivor is a bug in the suite.
const caught: string[] = []

describe('the suite fails against every deliberately broken server', () => {
  it.each(brokenServers.map((server) => [server.name, server] as const))('catches: %s', async (_, server) => {
    const http = await serveHttp(server.build(), { port: 0, host: '127.0.0.1' })
    try {
      const results = await runChecks({
        baseUrl: `${http.origin}/v1`,
        apiKey: brokenServerKey,
        readOnly: false,
      })
      const failed = results.filter((result) => result.outcome === 'failed')
      expect(failed.length, `no check failed against "${server.name}"`).toBeGreaterThan(0)
      caught.push(server.name)
    } finally {
      await http.close()
    }
  })

  it('keeps at least 25 broken servers', () => {
    expect(brokenServers.length).toBeGreaterThanOrEqual(25)
  })

  afterAll(() => {
    console.log(`Kill rate: ${caught.length}/${brokenServers.length} broken servers caught by the suite`)
  })
})
