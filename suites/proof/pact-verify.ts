// Pact's own Verifier, run on one recorded file against one server with the kit's state handlers: for proofs.
import { Verifier } from '@pact-foundation/pact'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { pactStateHandlers } from '../index.ts'
import type { StartedServer } from './serve-reference.ts'

/** The interactions Pact's Verifier fails on the server (none: the file passed), sorted. */
export async function verifierFailures(
  file: string,
  server: Pick<StartedServer, 'baseUrl' | 'apiKey'>,
): Promise<string[]> {
  // Pact sends usage events unless told not to.
  process.env.PACT_DO_NOT_TRACK = 'true'
  try {
    await new Verifier({
      providerBaseUrl: new URL(server.baseUrl).origin,
      pactUrls: [file],
      logLevel: 'error',
      customProviderHeaders: [`Authorization: Bearer ${server.apiKey}`],
      stateHandlers: pactStateHandlers({ baseUrl: server.baseUrl, apiKey: server.apiKey }),
    }).verifyProvider()
    return []
  } catch (error) {
    const { interactionResults } = JSON.parse((error as Error).message) as {
      interactionResults: { description: string; result: string }[]
    }
    return interactionResults
      .filter((result) => result.result !== 'OK')
      .map((result) => result.description)
      .sort()
  }
}

/** A fresh HTTP mock with no pets on 127.0.0.1, as a server a recording is verified on. */
export async function freshHttpMock(apiKey: string): Promise<StartedServer> {
  const http = await serveHttp(createMockApi({ apiKeys: [apiKey], pets: 0 }).handle, {
    port: 0,
    host: '127.0.0.1',
  })
  return { baseUrl: `${http.origin}/v1`, apiKey, close: http.close }
}
