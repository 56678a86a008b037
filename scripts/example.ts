// `npm run example`: serves the example frontend, against the in-browser mock or a server given by URL.
import { startExampleServer } from '../mocks/example/serve-example.ts'
import { defineCommand, helpText, parseCommand } from './cli/command-options.ts'
import { httpUrl, port, text } from './cli/option-kinds.ts'
import { runCommand } from './run-command.ts'

const command = defineCommand({
  name: 'npm run example',
  usage: ['npm run example -- [options]'],
  summary: `Serves the example frontend with Vite. By default it runs against the in-browser
mock (MSW service worker). Point it at a server with ?baseUrl=<url with /v1> in the page address,
or start it with --base-url.`,
  options: {
    port: { kind: port, help: 'port for the page', default: 5173 },
    host: { kind: text('H', 'an address to bind'), help: 'address to bind', default: '127.0.0.1' },
    'base-url': {
      kind: httpUrl('an http(s) URL including /v1'),
      help: 'the API the page talks to instead of the in-browser mock, e.g. http://127.0.0.1:4010/v1',
    },
  },
})
const help = helpText(command)

await runCommand(help, async (argv) => {
  const { values } = parseCommand(command, argv)
  if (values.help) return 'help'
  const server = await startExampleServer({
    port: values.port,
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
