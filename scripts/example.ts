import { parseArgs } from 'node:util'
import { startExampleServer } from '../mocks/example/serve-example.ts'
import { runCommand } from './run-command.ts'

const help = `Usage: npm run example -- [options]

Serves the example frontend (mocks/example/) with Vite. By default it runs against the in-browser
mock (MSW service worker). Point it at a server with ?baseUrl=<url with /v1> in the page address,
or start it with --base-url.

Options:
  --port N          port for the page (default 5173)
  --host H          address to bind (default 127.0.0.1)
  --base-url URL    the API the page talks to instead of the in-browser mock, e.g. http://127.0.0.1:4010/v1
  --help            show this help`

await runCommand(help, async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '5173' },
      host: { type: 'string', default: '127.0.0.1' },
      'base-url': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) return 'help'
  const server = await startExampleServer({
    port: Number(values.port),
    host: values.host,
    ...(values['base-url'] ? { apiBaseUrl: values['base-url'] } : {}),
  })
  console.log(
    `Example app: ${server.url}${values['base-url'] ? ` (talking to ${values['base-url']})` : ' (in-browser mock)'}`,
  )
  if (!values['base-url'])
    console.log(`Against npm start's mock: ${server.url}?baseUrl=http://127.0.0.1:4010/v1`)
  return server.close
})
