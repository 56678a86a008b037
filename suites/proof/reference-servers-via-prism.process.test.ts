import { describe, expect, it } from 'vitest'
import { startPrism } from '../../mocks/prism/start-prism.ts'
import { runChecks } from '../run-checks.ts'
import { referenceServers } from './reference-servers.ts'

// Prism 5.14's proxy reports an ABSENT optional header that has a `pattern` as a violation (FIELD-NOTES,
// "Prism 5.14.2"). getPet's Deprecation header is optional (`required: false`), so a correct server that
// does not send it is failed by the current suite's --via-prism mode. Pinned here as the one known false
// failure, precisely: any other failure via Prism is a real regression and fails this test.
const knownFalseFailure =
  /^GET \/pets\/\{petId\} (200|401|404) header deprecation: header deprecation must match pattern/

describe.each(referenceServers.map((server) => [server.name, server] as const))(
  '%s via Prism',
  (_, reference) => {
    it('passes every check of the current suite through Prism’s proxy, but for the known Prism false failure', async () => {
      const server = await reference.start()
      const prism = await startPrism({ mode: 'proxy', upstream: server.baseUrl, logLevel: 'silent' })
      try {
        const failed = (
          await runChecks({
            baseUrl: server.baseUrl,
            apiKey: server.apiKey,
            readOnly: false,
            prismUrl: prism.url,
          })
        ).filter((result) => result.outcome === 'failed')
        const unexplained = failed.filter((result) => !knownFalseFailure.test(result.message ?? ''))
        expect(unexplained.map((result) => `${result.group}: ${result.name}: ${result.message}`)).toEqual([])
        // The false failure appears exactly when the server leaves the optional header out.
        expect(failed.length > 0).toBe(!reference.settings.deprecationHeaders)
      } finally {
        await prism.stop()
        await server.close()
      }
    })
  },
)
