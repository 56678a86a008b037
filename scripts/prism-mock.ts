// `npm run mock:prism`: Prism's stateless mock of the contract, the pure contract view beside ours.
import { startPrism } from '../mocks/prism/start-prism.ts'
import { defineCommand, helpText, parseCommand } from './cli/command-options.ts'
import { flag, port, text } from './cli/option-kinds.ts'
import { runCommand } from './run-command.ts'

const command = defineCommand({
  name: 'npm run mock:prism',
  usage: ['npm run mock:prism -- [options]'],
  summary: `Runs Prism's own (stateless) mock on contract/openapi.yaml: the pure contract view, answering
from the document alone. Prism serves paths without the /v1 prefix (it ignores server paths).`,
  options: {
    port: { kind: port, help: 'port to listen on', default: 4011 },
    host: { kind: text('H', 'an address to bind'), help: 'host to bind', default: '127.0.0.1' },
    dynamic: { kind: flag, help: 'generate bodies from the schemas instead of static examples' },
    seed: { kind: text('S', 'a seed'), help: 'make --dynamic bodies repeatable' },
  },
})
const help = helpText(command)

await runCommand(help, async (argv) => {
  const { values } = parseCommand(command, argv)
  if (values.help) return 'help'
  const prism = await startPrism({
    mode: 'mock',
    host: values.host,
    port: values.port,
    dynamic: values.dynamic,
    ...(values.seed ? { seed: values.seed } : {}),
    onOutput: (chunk) => process.stderr.write(chunk),
  })
  console.log(
    `Prism mock of the Animal Store contract: ${prism.url}/pets (send Authorization: Bearer <any key>)`,
  )
  return prism.stop
})
