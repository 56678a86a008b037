#!/usr/bin/env node
import { createRequire } from 'node:module'
import { parseArgs } from 'node:util'

const help = `Usage: npm run conformance -- --base-url URL --api-key KEY [options]
       (installed: npx animal-store-conformance --base-url URL --api-key KEY [options])

Replays every operation of the Animal Store contract against a server and checks every response
(status, Content-Type, body schema, Error shape, headers) with Ajv, plus auth, limits, filters,
negative bodies generated from the schema, and that created pets can be read back.

Options:
  --base-url URL    the server, /v1 included (env CONFORMANCE_BASE_URL)
  --api-key KEY     a valid API key (env CONFORMANCE_API_KEY)
  --read-only       never create pets (production): checks needing a pet use one found by listing
  --report-dir DIR  where junit.xml, conformance.json and summary.md go (default reports/)
  --via-prism       send all traffic through Prism's validating proxy; its violations fail checks
  --help            show this help

Exit status: 0 the server conforms, 1 some check failed, 2 bad options or the server is unreachable.`

let values: Record<string, string | boolean | undefined>
try {
  ;({ values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'read-only': { type: 'boolean', default: false },
      'report-dir': { type: 'string', default: 'reports' },
      'via-prism': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }))
} catch (error) {
  console.error(`Usage error: ${(error as Error).message}\n\n${help}`)
  process.exit(2)
}
if (values.help) {
  console.log(help)
  process.exit(0)
}
// vitest runs the suite, and it is an optional peer of the package (about 40 MB the mock never needs):
// say what to install instead of failing on an import.
try {
  createRequire(import.meta.url).resolve('vitest/package.json')
} catch {
  console.error(
    'Cannot run: the conformance suite runs on vitest, which is not installed here. Install it beside this kit, then run this again:\n  npm install --save-dev vitest@^4.1',
  )
  process.exit(2)
}
const { runConformance } = await import('../suites/run-conformance.ts')
const outcome = await runConformance({
  baseUrl: String(values['base-url'] ?? process.env.CONFORMANCE_BASE_URL ?? ''),
  apiKey: String(values['api-key'] ?? process.env.CONFORMANCE_API_KEY ?? ''),
  readOnly: values['read-only'] === true,
  reportDir: String(values['report-dir']),
  viaPrism: values['via-prism'] === true,
}).catch((error: Error): { exitCode: 2; problem: string } => ({
  exitCode: 2,
  problem: `The suite could not run: ${error.message}`,
}))
if (outcome.problem)
  console.error(
    `${outcome.exitCode === 2 ? 'Cannot run' : 'Error'}: ${outcome.problem}${outcome.exitCode === 2 ? `\n\n${help.split('\n')[0]}` : ''}`,
  )
process.exit(outcome.exitCode)
