import { parseArgs } from 'node:util'
import { defaultApiKey } from '../mocks/core/api-keys.ts'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { startPrism } from '../mocks/prism/start-prism.ts'
import { runCommand } from './run-command.ts'

const help = `Usage: npm run proxy -- [--upstream URL] [options]

Puts Prism's validating proxy in front of a server: every request and response is checked against
contract/openapi.yaml, passed through untouched, and each violation is printed here (and listed
in the sl-violations header Prism adds to the response).

Options:
  --upstream URL   the server to check, including /v1 (default: our mock, started in-process)
  --port N         port for the proxy (default 4012); call it without /v1: http://127.0.0.1:4012/pets
  --host H         address to bind (default 127.0.0.1)
  --help           show this help`

await runCommand(help, async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string', default: '4012' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) return 'help'
  let upstream = values.upstream
  let stopUpstream = async () => {}
  if (!upstream) {
    const mock = await serveHttp(createMockApi().handle, { port: 0, host: '127.0.0.1' })
    upstream = `${mock.origin}/v1`
    stopUpstream = mock.close
    console.log(`Upstream: our mock at ${upstream} (API key: ${defaultApiKey})`)
  } else if (!/^https?:\/\//.test(upstream)) {
    throw Object.assign(new Error(`--upstream must be an http(s) URL including /v1, got "${upstream}".`), {
      code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
    })
  }
  let pending = ''
  // The readiness probe's own request is not the user's traffic; report only what comes after it.
  let ready = false
  const prism = await startPrism({
    mode: 'proxy',
    upstream,
    host: values.host,
    port: Number(values.port),
    // Prism logs every request; only its violations and errors are worth a person's attention here.
    onOutput: (chunk) => {
      pending += chunk
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) if (ready && /Violation|error/i.test(line)) console.error(line.trim())
    },
  })
  ready = true
  console.log(`Prism validating proxy on ${prism.url} -> ${upstream}`)
  console.log(`Try: curl -i -H 'Authorization: Bearer <key>' ${prism.url}/pets   (violations print below)`)
  return async () => {
    await prism.stop()
    await stopUpstream()
  }
})
