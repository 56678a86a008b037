#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { staleContractWarning } from '../contract/contract-freshness.ts'
import { contract } from '../contract/index.ts'
import { checkBundle, describeFindings } from '../mocks/check-bundle.ts'
import { defaultApiKey } from '../mocks/core/api-keys.ts'
import {
  type ConditionOptions,
  defaultRateFaultKinds,
  type FaultKind,
  faultKinds,
  type Latency,
  parseLatency,
} from '../mocks/core/conditions.ts'
import { createRequestHandler, operationIdsOf } from '../mocks/core/handle-request.ts'
import { defaultMemoryBudget } from '../mocks/core/memory-budget.ts'
import { createMockState, maxSeededPets } from '../mocks/core/mock-state.ts'
import { defaultJournalSize } from '../mocks/core/request-journal.ts'
import { basePathOf } from '../mocks/core/route.ts'
import { isScenarioName, type ScenarioName, scenarioNames } from '../mocks/core/scenarios.ts'
import { defaultPetCount, defaultSeed } from '../mocks/core/seed-pets.ts'
import { createSessionPool, defaultMaxSessions } from '../mocks/core/sessions.ts'
import { resetInSteps } from '../mocks/http/reset-in-steps.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { writeServiceWorker } from '../mocks/service-worker-file.ts'
import { runCommand } from './run-command.ts'

const help = `Usage: animal-store-mock [options]
       animal-store-mock worker <publicDir>
       animal-store-mock check-bundle <buildDir>
       (in this repository: npm start -- [options])

Serves the stateful Animal Store mock over HTTP: pets you add are there when you list or get them.
"worker <publicDir>" instead writes MSW's mockServiceWorker.js into your app's public folder, which
the browser mock needs (run it again after upgrading msw). "check-bundle <buildDir>" looks through a
production build for the mock (mockServiceWorker.js, a chunk holding the mock's handlers, the mock's
default API key): exit 1 naming every such file, 0 on a clean build, 2 when the folder is missing.

Options:
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host H              address to bind (default 127.0.0.1)
  --api-key KEY         accepted API key, repeatable (default: env MOCK_API_KEYS, comma-separated,
                        else "${defaultApiKey}")
  --seed N              seed for the generated pets (default ${defaultSeed}); same seed, same pets
  --pets N              how many pets to start with, 0 to ${maxSeededPets} (default: the scenario's,
                        ${defaultPetCount} for default)
  --scenario NAME       starting state: ${scenarioNames.join(', ')} (default default);
                        many = 10,000 long non-Latin names, full = creates get 507,
                        slow = 500-2000 ms latency, flaky = 20% faults
  --latency MS          delay every answer: 300, or a range 200-800 drawn from the seed (default none);
                        OPERATION=MS (e.g. createPet=1000) sets one operation, repeatable
  --fault-rate R        share of requests, 0 to 1, that get a fault (default 0); OPERATION=R sets one
                        operation, repeatable
  --fault-kinds LIST    kinds a fault rate draws from: ${faultKinds.join(',')}
                        (default ${defaultRateFaultKinds.join(',')})
  --max-sessions N      sessions kept at once, each chosen by an X-Mock-Session header with its own pets,
                        settings and journal (default ${defaultMaxSessions}; the least recently used goes first;
                        0 refuses the header)
  --journal-size N      requests kept for GET /__mock/requests (default ${defaultJournalSize}; 0 turns it off)
  --max-store-bytes B   memory budget of the stored pets (default ${mib(defaultMemoryBudget.maxStoreBytes)});
                        when full, creates get 507 store_full. Bytes, or with K, M, G (binary)
  --max-cache-bytes B   memory budget of cached list pages (default ${mib(defaultMemoryBudget.maxPageCacheBytes)})
  --allowed-host NAME   also answer requests with this Host, repeatable; ".example.test" allows its
                        subdomains too (loopback names, IP addresses and --host are always allowed)
  --cors-origin ORIGIN  only this origin's pages may read /v1 answers, repeatable (default: any origin)
  --log                 print one line per request (faults marked)
  --help                show this help

Per request: "Prefer: delay=800" waits 800 ms, "Prefer: fault=503" (500, reset, timeout, truncate)
forces a fault; faulted answers carry an X-Mock-Fault header.

Test control (no API key, no CORS, JSON only):
  curl localhost:4010/__mock/health
  curl localhost:4010/__mock/requests
  curl -X POST -H 'Content-Type: application/json' -d '{"seed": 1, "pets": 50}' localhost:4010/__mock/reset
  curl -X POST -H 'Content-Type: application/json' -d '{"scenario": "flaky"}' localhost:4010/__mock/reset
  curl -X POST -H 'Content-Type: application/json' -d '{"latency": 300, "faultRate": 0.1}' localhost:4010/__mock/reset
A reset takes scenario, seed, pets, latency, faultRate, faultKinds and operations; any other key is a 400.
It returns to the options this mock was started with, each key given replacing that one option.
Add "X-Mock-Session: NAME" to any request (control ones included) to use that session's own store.`

await runCommand(help, async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string', multiple: true },
      seed: { type: 'string', default: String(defaultSeed) },
      pets: { type: 'string' },
      scenario: { type: 'string', default: 'default' },
      latency: { type: 'string', multiple: true },
      'fault-rate': { type: 'string', multiple: true },
      'fault-kinds': { type: 'string' },
      'journal-size': { type: 'string', default: String(defaultJournalSize) },
      'max-sessions': { type: 'string', default: String(defaultMaxSessions) },
      'max-store-bytes': { type: 'string', default: String(defaultMemoryBudget.maxStoreBytes) },
      'max-cache-bytes': { type: 'string', default: String(defaultMemoryBudget.maxPageCacheBytes) },
      'allowed-host': { type: 'string', multiple: true },
      'cors-origin': { type: 'string', multiple: true },
      log: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) return 'help'
  if (positionals[0] === 'worker') {
    if (positionals.length !== 2)
      throw usageError('worker takes one argument: the public folder, e.g. "worker public".')
    console.log(`Wrote ${writeServiceWorker(positionals[1] ?? '')}: serve it from your site's root.`)
    return undefined
  }
  if (positionals[0] === 'check-bundle') {
    if (positionals.length !== 2)
      throw usageError('check-bundle takes one argument: the build output folder, e.g. "check-bundle dist".')
    const dir = positionals[1] ?? ''
    let found: ReturnType<typeof checkBundle>
    try {
      found = checkBundle(dir)
    } catch (error) {
      throw usageError((error as Error).message)
    }
    if (found.findings.length === 0) {
      console.log(`${dir}: no part of the Animal Store mock in ${found.checked} files.`)
      return undefined
    }
    console.error(describeFindings(dir, found.findings))
    process.exitCode = 1
    return undefined
  }
  if (positionals.length > 0) throw usageError(`Unknown command "${positionals.join(' ')}".`)
  const port = integerOption('--port', values.port, 0, 65535)
  const seed = integerOption('--seed', values.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
  const scenario = scenarioOption(values.scenario)
  const pets = values.pets === undefined ? undefined : integerOption('--pets', values.pets, 0, maxSeededPets)
  const journalSize = integerOption('--journal-size', values['journal-size'], 0, 1_000_000)
  const maxSessions = integerOption('--max-sessions', values['max-sessions'], 0, 10_000)
  const conditions = conditionOptions(values.latency ?? [], values['fault-rate'] ?? [], values['fault-kinds'])
  const maxStoreBytes = byteOption('--max-store-bytes', values['max-store-bytes'])
  const maxPageCacheBytes = byteOption('--max-cache-bytes', values['max-cache-bytes'])
  const corsOrigins = (values['cors-origin'] ?? []).map(originOption)
  const fromEnv = (process.env.MOCK_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean)
  const apiKeys = values['api-key']?.length ? values['api-key'] : fromEnv.length ? fromEnv : [defaultApiKey]

  const stale = staleContractWarning()
  if (stale) console.error(`Warning: ${stale}`)
  if ((pets ?? 0) >= 100_000) console.error(`Seeding ${pets} pets from seed ${seed}...`)
  // The core straight on node:http: MSW (and its start-up cost) has no part in serving a socket.
  const operationIds = operationIdsOf(contract)
  // Every session, the default one included, starts from the same options and has its own store.
  const createSession = () => {
    const state = createMockState({
      seed,
      ...(pets === undefined ? {} : { pets }),
      scenario,
      ...conditions,
      journalSize,
      budget: { maxStoreBytes, maxPageCacheBytes },
    })
    const handle = createRequestHandler({
      contract,
      state,
      apiKeys,
      corsOrigins,
      sessions: () => sessions.sessions(),
    })
    return { state, handle: resetInSteps(handle, state, operationIds) }
  }
  let sessions: ReturnType<typeof createSessionPool>
  try {
    sessions = createSessionPool({ maxSessions, create: createSession })
  } catch (error) {
    throw usageError((error as Error).message)
  }
  const state = sessions.defaultState
  const server = await serveHttp(sessions.handle, {
    port,
    host: values.host,
    allowedHosts: values['allowed-host'] ?? [],
    ...(values.log ? { onRequest: (line: string) => console.log(line) } : {}),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') {
      throw new Error(
        `Port ${port} on ${values.host} is already in use. Stop the other server or pass --port <another>.`,
      )
    }
    throw error
  })
  const baseUrl = `${server.origin}${basePathOf(contract)}`
  console.log(
    `Animal Store mock listening on ${baseUrl} (${state.store.size} pets, seed ${seed}${scenario === 'default' ? '' : `, scenario ${scenario}`})`,
  )
  console.log(`API key${apiKeys.length > 1 ? 's' : ''}: ${apiKeys.join(', ')}`)
  console.log(`Try: curl -H 'Authorization: Bearer ${apiKeys[0]}' ${baseUrl}/pets`)
  return server.close
})

function integerOption(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw)
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw usageError(`${name} must be an integer from ${min} to ${max}, got "${raw}".`)
  }
  return value
}

function scenarioOption(raw: string): ScenarioName {
  if (!isScenarioName(raw))
    throw usageError(`--scenario must be one of ${scenarioNames.join(', ')}, got "${raw}".`)
  return raw
}

/** --latency and --fault-rate values (global, or OPERATION=value) and --fault-kinds, as core options. */
function conditionOptions(latencies: string[], rates: string[], kinds: string | undefined): ConditionOptions {
  const options: ConditionOptions = {}
  const operations: NonNullable<ConditionOptions['operations']> = {}
  const split = (raw: string) => {
    const at = raw.indexOf('=')
    return at === -1 ? [undefined, raw] : [raw.slice(0, at).trim(), raw.slice(at + 1)]
  }
  for (const raw of latencies) {
    const [operation, text = ''] = split(raw)
    const latency: Latency | undefined = parseLatency(text)
    if (latency === undefined)
      throw usageError(
        `--latency must be milliseconds such as 300, a range such as 200-800, or createPet=300; got "${raw}".`,
      )
    if (operation === undefined) options.latency = latency
    else operations[operation] = { ...operations[operation], latency }
  }
  for (const raw of rates) {
    const [operation, text = ''] = split(raw)
    const rate = Number(text)
    if (text.trim() === '' || !(rate >= 0 && rate <= 1))
      throw usageError(
        `--fault-rate must be a number from 0 to 1 such as 0.05, or createPet=0.5; got "${raw}".`,
      )
    if (operation === undefined) options.faultRate = rate
    else operations[operation] = { ...operations[operation], faultRate: rate }
  }
  if (kinds !== undefined) {
    const list = kinds.split(',').map((kind) => kind.trim())
    const unknown = list.filter((kind) => !(faultKinds as readonly string[]).includes(kind))
    if (unknown.length > 0 || list.length === 0)
      throw usageError(
        `--fault-kinds takes a comma-separated list of ${faultKinds.join(', ')}; got "${kinds}".`,
      )
    options.faultKinds = list as FaultKind[]
  }
  if (Object.keys(operations).length > 0) options.operations = operations
  return options
}

function byteOption(name: string, raw: string): number {
  const match = /^\s*(\d+)\s*([kmg]?)i?b?\s*$/i.exec(raw)
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match?.[2] ?? '').toLowerCase()] ?? 1
  const value = Number(match?.[1]) * scale
  if (!match || !Number.isSafeInteger(value) || value < 1024) {
    throw usageError(
      `${name} must be a byte count of at least 1024, such as 268435456 or 256M; got "${raw}".`,
    )
  }
  return value
}

function originOption(raw: string): string {
  try {
    const url = new URL(raw)
    if (url.origin !== 'null' && raw.replace(/\/$/, '') === url.origin) return url.origin
  } catch {}
  throw usageError(
    `--cors-origin must be an origin such as http://localhost:5173 (scheme, host, port; no path), got "${raw}".`,
  )
}

function mib(bytes: number): string {
  return `${bytes / 1024 / 1024}M`
}

function usageError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' })
}
