import { defaults } from '../suites/run-conformance.ts'
import { defineCommand } from './cli/command-options.ts'
import { flag, integer, seconds, text } from './cli/option-kinds.ts'

/**
 * `animal-store-conformance`, declared once: its parser, its `--help`, the docs' option table and the
 * test of the pipeline example all read this table.
 */
export const conformanceCommand = defineCommand({
  name: 'animal-store-conformance',
  usage: [
    'animal-store-conformance --base-url URL --api-key KEY [options]',
    '(in this repository: npm run conformance -- --base-url URL --api-key KEY [options])',
  ],
  summary: `Replays every operation of the Animal Store contract against a server and checks every response
(status, Content-Type, body schema, Error shape, headers) with Ajv, plus auth, limits, filters,
negative bodies generated from the schema, and that created pets can be read back.`,
  options: {
    'base-url': {
      kind: text('URL', "the server's base URL, /v1 included"),
      help: 'the server, /v1 included',
      env: 'CONFORMANCE_BASE_URL',
    },
    'api-key': {
      kind: text('KEY', 'an API key'),
      help: 'a valid API key; prefer the environment variable (others on the machine\nsee arguments in ps)',
      env: 'CONFORMANCE_API_KEY',
      secret: true,
    },
    'read-only': {
      kind: flag,
      help: 'never create pets (production): checks needing a pet use one found by listing',
    },
    'report-dir': {
      kind: text('DIR', 'a folder'),
      help: 'where junit.xml, conformance.json, summary.md and conformance.html go',
      default: 'reports',
    },
    'via-prism': {
      kind: flag,
      help: "also send traffic through Prism's validating proxy; each violation it reports\nis checked against the response, and false positives become notes",
    },
    timeout: {
      kind: seconds(),
      help: "the whole run's deadline; past it the run exits 2",
      default: defaults.timeoutSeconds,
    },
    'request-timeout': {
      kind: seconds(),
      help: "one request's deadline, headers and body",
      default: defaults.requestTimeoutSeconds,
    },
    seed: {
      kind: integer(0, 2 ** 31 - 1),
      help: 'seed of the generated requests and sequences (default: random; every report\nprints it, and the same seed replays them)',
    },
    'max-examples': {
      kind: integer(1, 10_000),
      help: 'random sequences the stateful model runs',
      default: defaults.maxExamples,
    },
  },
  footer: `Exit status: 0 the server conforms; 1 it breaks the contract (each distinct finding listed once);
2 the run could not judge it: bad options, server unreachable, API key refused, no API at the base URL,
report directory not writable, or the run's deadline passed.`,
})
