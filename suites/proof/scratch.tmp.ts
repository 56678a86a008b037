import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { runDepthChecks } from './depth-checks.ts'

const http = await serveHttp(createMockApi({ apiKeys: ['Mock-Key-1'], pets: 30 }).handle, {
  port: 0,
  host: '127.0.0.1',
})
const t = Date.now()
const findings = await runDepthChecks(
  { baseUrl: `${http.origin}/v1`, apiKey: 'Mock-Key-1' },
  { seed: 7, maxExamples: 25 },
)
console.log('ms', Date.now() - t)
for (const f of findings)
  if (f.severity === 'failure' || f.section === 'security')
    console.log(f.severity, f.rule, f.operation, f.message.slice(0, 250))
await http.close()
