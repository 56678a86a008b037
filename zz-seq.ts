import { findFreePort } from './mocks/local-port.ts'
import { launchMock } from './scripts/bench/launch-server.ts'
import { runConformanceInThread } from './suites/proof/conformance-in-thread.ts'
const port = await findFreePort()
const mock = await launchMock(port)
await runConformanceInThread({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'bench-key', seed: 7 })
for (const l of (globalThis as any).zzLog) console.log(l.slice(0, 150))
await mock.stop()
