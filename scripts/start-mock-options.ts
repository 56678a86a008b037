// The mock command's option table, apart from the script so docs and tests read it without starting a server.
import { defaultApiKey } from '../mocks/core/api-keys.ts'
import { defaultRateFaultKinds, faultKinds, type Latency, parseLatency } from '../mocks/core/conditions.ts'
import { defaultMemoryBudget } from '../mocks/core/memory-budget.ts'
import { maxSeededPets } from '../mocks/core/mock-state.ts'
import { defaultJournalSize } from '../mocks/core/request-journal.ts'
import { scenarioNames } from '../mocks/core/scenarios.ts'
import { defaultPetCount, defaultSeed } from '../mocks/core/seed-pets.ts'
import { defaultMaxSessions } from '../mocks/core/sessions.ts'
import { defineCommand } from './cli/command-options.ts'
import {
  bytes,
  commaList,
  day,
  flag,
  fraction,
  integer,
  type Kind,
  oneOf,
  origin,
  port,
  text,
} from './cli/option-kinds.ts'

/** A value for every operation, or for one: `300` or `createPet=300`. */
export interface PerOperation<T> {
  operation?: string
  value: T
}

function perOperation<T>(kind: Kind<T>, example: string): Kind<PerOperation<T>> {
  return {
    placeholder: kind.placeholder,
    accepts: `${kind.accepts}, or createPet=${example}`,
    read: (raw) => {
      const at = raw.indexOf('=')
      const operation = at === -1 ? undefined : raw.slice(0, at).trim()
      const value = kind.read(at === -1 ? raw : raw.slice(at + 1))
      if (value === undefined || operation === '') return undefined
      return operation === undefined ? { value } : { operation, value }
    },
  }
}

const latency: Kind<Latency> = {
  placeholder: 'MS',
  accepts: 'milliseconds such as 300, a range such as 200-800',
  read: parseLatency,
}

/** `animal-store-mock` (`npm start`), declared once: parser, `--help` and the docs' table read it. */
export const startMockCommand = defineCommand({
  name: 'animal-store-mock',
  usage: [
    'animal-store-mock [options]',
    'animal-store-mock worker <publicDir>',
    'animal-store-mock check-bundle <dir>...',
    '(in this repository: npm start -- [options])',
  ],
  summary: `Serves the stateful Animal Store mock over HTTP: pets you add are there when you list or get them.
"worker <publicDir>" instead writes MSW's mockServiceWorker.js into your app's public folder, which
the browser mock needs (run it again after upgrading msw). "check-bundle <dir>..." looks through
production builds for the mock (mockServiceWorker.js, a chunk holding the mock's handlers, the mock's
default API key). Each <dir> is a project root or a build folder: a Next.js project (a folder holding
.next/, or .next itself) is searched in .next/static, .next/server and public/, skipping .next/cache,
which never ships; a Vite project (a vite.config) in its build.outDir when the config spells it out,
else dist/; any other folder as given. It says what it recognised and searched, names each file that
ships the mock once however many folders reach it, with the fix for that framework, and exits 1; 0 on
a clean build; 2 when a folder is missing or a project has no build.`,
  positionals: true,
  options: {
    port: { kind: port, help: 'port to listen on; 0 picks a free one', default: 4010 },
    host: { kind: text('H', 'an address to bind'), help: 'address to bind', default: '127.0.0.1' },
    'api-key': {
      kind: text('KEY', 'an API key'),
      multiple: true,
      help: `accepted API key, repeatable (default: env MOCK_API_KEYS, comma-separated,\nelse "${defaultApiKey}")`,
    },
    seed: {
      kind: integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
      help: 'seed for the generated pets; same seed, same pets',
      default: defaultSeed,
    },
    pets: {
      kind: integer(0, maxSeededPets),
      help: `how many pets to start with, 0 to ${maxSeededPets}`,
      defaultText: `the scenario's, ${defaultPetCount} for default`,
    },
    scenario: {
      kind: oneOf(scenarioNames),
      help: `starting state: ${scenarioNames.join(', ')};\nmany = 10,000 long non-Latin names, full = creates get 507,\nslow = 500-2000 ms latency, flaky = 20% faults`,
      default: 'default',
    },
    latency: {
      kind: perOperation(latency, '300'),
      multiple: true,
      help: 'delay every answer: 300, or a range 200-800 drawn from the seed (default none);\nOPERATION=MS (e.g. createPet=1000) sets one operation, repeatable',
    },
    'fault-rate': {
      kind: perOperation(fraction, '0.5'),
      multiple: true,
      help: 'share of requests, 0 to 1, that get a fault (default 0); OPERATION=R sets one\noperation, repeatable',
    },
    'fault-kinds': {
      kind: commaList(oneOf(faultKinds)),
      help: `kinds a fault rate draws from: ${faultKinds.join(',')}`,
      defaultText: defaultRateFaultKinds.join(','),
    },
    'max-sessions': {
      kind: integer(0, 10_000),
      help: 'sessions kept at once, each chosen by an X-Mock-Session header with its own pets,\nsettings and journal (the least recently used goes first; 0 refuses the header)',
      default: defaultMaxSessions,
    },
    'require-session': {
      kind: flag,
      help: 'answer a /v1 request without X-Mock-Session with 400 session_required, so a\nforgotten header (or an SSR server not forwarding it) fails instead of sharing\nthe default session (/__mock routes are unaffected)',
    },
    date: {
      kind: day,
      help: 'the day the mock acts on: past an operation\'s sunset (getPet: 2030-12-05) it\nanswers 410 operation_removed, to rehearse the removal; POST /__mock/reset takes\n"date" too',
      defaultText: 'today, UTC',
    },
    record: {
      kind: text('DIR', 'a folder'),
      help: 'record what clients do as a Pact file, DIR/<consumer>-animal-store.json, written\nwhen the mock stops and on POST /__mock/pact (docs/pact.md); needs --consumer',
    },
    consumer: {
      kind: text('NAME', 'a consumer name'),
      help: 'the consumer the recorded Pact file names: letters, digits, ".", "_", "-"',
    },
    'journal-size': {
      kind: integer(0, 1_000_000),
      help: 'requests kept for GET /__mock/requests; 0 turns it off',
      default: defaultJournalSize,
    },
    'max-store-bytes': {
      kind: bytes(),
      help: 'memory budget of the stored pets, all sessions together; when full, creates get\n507 store_full. Bytes, or with K, M, G (binary)',
      default: defaultMemoryBudget.maxStoreBytes,
    },
    'max-cache-bytes': {
      kind: bytes(),
      help: 'memory budget of cached list pages (the named sessions share another one)',
      default: defaultMemoryBudget.maxPageCacheBytes,
    },
    'allowed-host': {
      kind: text('NAME', 'a host name'),
      multiple: true,
      help: 'also answer requests with this Host, repeatable; ".example.test" allows its\nsubdomains too (loopback names, IP addresses and --host are always allowed)',
    },
    'cors-origin': {
      kind: origin,
      multiple: true,
      help: "only this origin's pages may read /v1 answers, repeatable (default: any origin)",
    },
    log: { kind: flag, help: 'print one line per request (faults marked)' },
  },
  footer: `Per request: "Prefer: delay=800" waits 800 ms, "Prefer: fault=503" (500, reset, timeout, truncate)
forces a fault; faulted answers carry an X-Mock-Fault header.

Test control (no API key, no CORS, JSON only):
  curl localhost:4010/__mock/health
  curl localhost:4010/__mock/requests
  curl -X POST -H 'Content-Type: application/json' -d '{"seed": 1, "pets": 50}' localhost:4010/__mock/reset
  curl -X POST -H 'Content-Type: application/json' -d '{"scenario": "flaky"}' localhost:4010/__mock/reset
  curl -X POST -H 'Content-Type: application/json' -d '{"latency": 300, "faultRate": 0.1}' localhost:4010/__mock/reset
A reset takes scenario, seed, pets, latency, faultRate, faultKinds and operations; any other key is a 400.
It returns to the options this mock was started with, each key given replacing that one option.
Add "X-Mock-Session: NAME" to any request (control ones included) to use that session's own store.`,
})
