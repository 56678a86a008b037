import { parseArgs } from 'node:util'
import { startPrism } from '../mocks/prism/start-prism.ts'
import { runCommand } from './run-command.ts'

const help = `Usage: npm run mock:prism -- [options]

Runs Prism's own (stateless) mock on contract/openapi.yaml: the pure contract view, answering
from the document alone. Prism serves paths without the /v1 prefix (it ignores server paths).

Options:
  --port N      port to listen on (default 4011)
  --host H      host to bind (default 127.0.0.1)
  --dynamic     generate bodies from the schemas instead of static examples
  --seed S      make --dynamic bodies repeatable
  --help        show this help`

await runCommand(help, async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '4011' },
      host: { type: 'string', default: '127.0.0.1' },
      dynamic: { type: 'boolean', default: false },
      seed: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) return 'help'
  const port = Number(values.port)
  const prism = await startPrism({
    mode: 'mock',
    host: values.host,
    port,
    dynamic: values.dynamic,
    ...(values.seed ? { seed: values.seed } : {}),
    onOutput: (chunk) => process.stderr.write(chunk),
  })
  console.log(
    `Prism mock of the Animal Store contract: ${prism.url}/pets (send Authorization: Bearer <any key>)`,
  )
  return prism.stop
})
