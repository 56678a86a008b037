// The conformance command's option table, apart from the script so docs and tests read it without running.
import { defaults } from '../suites/run-defaults.ts'
import { defineCommand } from './cli/command-options.ts'
import { commaList, day, flag, integer, matching, oneOf, seconds, text } from './cli/option-kinds.ts'

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
      refuseInFile: (raw) =>
        /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw)
          ? 'holds credentials, which cannot be written in the file; give the URL with them in CONFORMANCE_BASE_URL, or {"env": "VARIABLE"}.'
          : undefined,
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
    baseline: {
      kind: text('FILE', 'a file'),
      help: 'accepted findings (id, reason, optional expiry day): reported as known, they do\nnot fail the run; expired ones do again; entries nothing matched are listed as stale',
    },
    'write-baseline': {
      kind: text('FILE', 'a file'),
      help: "write this run's findings as a baseline, each with an empty reason to fill in\n(reasons of entries already in --baseline are kept)",
    },
    previous: {
      kind: text('FILE', 'a file'),
      help: "a previous run's conformance.json: every report adds what changed since (new,\nfixed, still open findings); a missing or unusable file is a note, never a stop",
    },
    pact: {
      kind: text('FILE', 'a file'),
      multiple: true,
      help: "a consumer's Pact file recorded on the mock (docs/pact.md), repeatable: each\ninteraction is replayed (its states set up through the API) and judged by the\ncontract and by the recording; drift where the contract holds is consumer drift",
    },
    date: {
      kind: day,
      help: "the day operations' sunsets are judged against: past one (getPet: 2030-12-05), a\n2xx is the policy finding served-after-sunset",
      defaultText: 'today, UTC',
    },
    'pact-drift': {
      kind: oneOf(['fail', 'warn'], 'fail|warn'),
      help: 'fail: consumer drift fails the run, as a Pact verification does; warn: a warning',
      default: 'fail',
    },
    policy: {
      kind: oneOf(['strict', 'off'], 'strict|off'),
      help: "strict: the suite's policy where the contract is silent (refusing limit=101,\nmethods, awkward values) fails like the contract; off: warnings only",
      default: 'strict',
    },
    checks: {
      kind: commaList(text('NAME', 'a check name'), 'LIST'),
      help: 'judge only these checks: rules, groups or kinds (contract, policy), comma-separated',
    },
    'exclude-checks': {
      kind: commaList(text('NAME', 'a check name'), 'LIST'),
      help: 'leave these checks out (rules, groups or kinds): not judged, reported as excluded,\nnever as passed',
    },
    'list-checks': { kind: flag, help: 'list every check (rule) with its group and kind, and exit' },
    progress: { kind: flag, help: 'force the progress line on stderr on (default: on a TTY, off in CI)' },
    quiet: { kind: flag, help: 'no progress line' },
    'max-writes': {
      kind: integer(0, 1_000_000),
      help: 'create at most N pets; checks that would create more are skipped, saying why',
    },
    'name-prefix': {
      // Letters, digits and dashes only: it starts every name the run creates, and the census finds
      // earlier runs' pets by it.
      kind: matching('PREFIX', /^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/, 'letters, digits and dashes, at most 40'),
      help: "the start of every pet name this run creates (default: conformance); runs that share it\nreuse and count each other's pets",
    },
    'max-created-total': {
      kind: integer(0, 1_000_000),
      help: 'exit 2, creating nothing, when the target already holds more than N pets named\nby earlier runs (counted on the first pages; default: no limit)',
    },
    'rate-limit': {
      kind: text('RATE', 'a rate such as 20/s or 600/m'),
      help: 'pace requests from the start, e.g. 20/s or 600/m (throttling is always waited out)',
    },
    proxy: {
      kind: text('URL', 'a proxy URL'),
      help: 'send every request through this http proxy (CONNECT for https); HTTP_PROXY,\nHTTPS_PROXY and NO_PROXY are honoured without it',
      refuseInFile: (raw) =>
        /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw)
          ? 'holds credentials, which cannot be written in the file; write {"env": "VARIABLE"}.'
          : undefined,
    },
    header: {
      kind: text("'NAME: VALUE'", 'a header such as "X-Tenant: blue"'),
      multiple: true,
      secret: true,
      help: 'sent on every request (repeatable); values are secrets in every output',
    },
    ca: { kind: text('FILE', 'a file'), help: 'PEM certificates trusted besides the system roots' },
    cert: { kind: text('FILE', 'a file'), help: 'client certificate (PEM) for mTLS, with --key' },
    key: { kind: text('FILE', 'a file'), help: "the client certificate's key (PEM) for mTLS" },
    'key-passphrase-env': {
      kind: text('VAR', 'an environment variable name'),
      help: "the environment variable holding the key's passphrase",
    },
    insecure: { kind: flag, help: 'accept any TLS certificate (every report says so)' },
    'max-examples': {
      kind: integer(1, 10_000),
      help: 'random sequences the stateful model runs',
      default: defaults.maxExamples,
    },
  },
  configFile: ['animal-store.config.json', 'animal-store.config.yaml', 'animal-store.config.yml'],
  footer: `Options can also come from a config file (JSON or YAML) whose keys are the option names above:
{"base-url": "https://staging.example.com/v1", "timeout": 600, "api-key": {"env": "STAGING_KEY"}}.
A secret is never written there, only the environment variable that holds it.

Exit status: 0 the server conforms; 1 it breaks the contract (each distinct finding listed once);
2 the run could not judge it: bad options, server unreachable, API key refused, no API at the base URL,
report directory not writable, or the run's deadline passed.`,
})
