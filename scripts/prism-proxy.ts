// `npm run proxy`: Prism's validating proxy in front of a server (our mock by default), printing violations.
import { defaultApiKey } from '../mocks/core/api-keys.ts'
import { createMockApi } from '../mocks/create-mock-api.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { startPrism } from '../mocks/prism/start-prism.ts'
import { defineCommand, helpText, parseCommand } from './cli/command-options.ts'
import { httpUrl, port, text } from './cli/option-kinds.ts'
import { runCommand } from './run-command.ts'

const command = defineCommand({
  name: 'npm run proxy',
  usage: ['npm run proxy -- [--upstream URL] [options]'],
  summary: `Puts Prism's validating proxy in front of a server: every request and response is checked against
contract/openapi.yaml, passed through untouched, and each violation is printed here (and listed
in the sl-violations header Prism adds to the response).`,
  options: {
    upstream: {
      kind: httpUrl('an http(s) URL including /v1'),
      help: 'the server to check, including /v1',
      defaultText: 'our mock, started in-process',
    },
    port: {
      kind: port,
      help: 'port for the proxy; call it without /v1: http://127.0.0.1:4012/pets',
      default: 4012,
    },
    host: { kind: text('H', 'an address to bind'), help: 'address to bind', default: '127.0.0.1' },
  },
})
const help = helpText(command)

await runCommand(help, async (argv) => {
  const { values } = parseCommand(command, argv)
  if (values.help) return 'help'
  let upstream = values.upstream
  let stopUpstream = async () => {}
  if (!upstream) {
    const mock = await serveHttp(createMockApi().handle, { port: 0, host: '127.0.0.1' })
    upstream = `${mock.origin}/v1`
    stopUpstream = mock.close
    console.log(`Upstream: our mock at ${upstream} (API key: ${defaultApiKey})`)
  }
  let pending = ''
  // The readiness probe's own request is not the user's traffic; report only what comes after it.
  let ready = false
  const prism = await startPrism({
    mode: 'proxy',
    upstream,
    host: values.host,
    port: values.port,
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
