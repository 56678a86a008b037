import type { ParseArgsConfig } from 'node:util'

/**
 * The options `animal-store-conformance` accepts, as `parseArgs` reads them: the command parses with these,
 * and the test of the pipeline example checks every flag it uses against them.
 */
export const conformanceOptions = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'read-only': { type: 'boolean', default: false },
  'report-dir': { type: 'string', default: 'reports' },
  'via-prism': { type: 'boolean', default: false },
  timeout: { type: 'string' },
  'request-timeout': { type: 'string' },
  seed: { type: 'string' },
  'max-examples': { type: 'string' },
  'rate-limit': { type: 'string' },
  proxy: { type: 'string' },
  ca: { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'key-passphrase-env': { type: 'string' },
  insecure: { type: 'boolean', default: false },
  header: { type: 'string', multiple: true },
  'max-writes': { type: 'string' },
  help: { type: 'boolean', default: false },
} as const satisfies NonNullable<ParseArgsConfig['options']>
