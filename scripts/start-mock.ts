#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { staleContractWarning } from '../contract/contract-freshness.ts'
import { contract } from '../contract/index.ts'
import { defaultApiKey } from '../mocks/core/api-keys.ts'
import { createRequestHandler } from '../mocks/core/handle-request.ts'
import { defaultMemoryBudget } from '../mocks/core/memory-budget.ts'
import { createMockState, maxSeededPets } from '../mocks/core/mock-state.ts'
import { basePathOf } from '../mocks/core/route.ts'
import { defaultPetCount, defaultSeed } from '../mocks/core/seed-pets.ts'
import { resetInSteps } from '../mocks/http/reset-in-steps.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { writeServiceWorker } from '../mocks/service-worker-file.ts'
import { runCommand } from './run-command.ts'

const help = `Usage: animal-store-mock [options]
       animal-store-mock worker <publicDir>
       (in this repository: npm start -- [options])

Serves the stateful Animal Store mock over HTTP: pets you add are there when you list or get them.
"worker <publicDir>" instead writes MSW's mockServiceWorker.js into your app's public folder, which
the browser mock needs (run it again after upgrading msw).

Options:
  --port N              port to listen on (default 4010; 0 picks a free one)
  --host H              address to bind (default 127.0.0.1)
  --api-key KEY         accepted API key, repeatable (default: env MOCK_API_KEYS, comma-separated,
                        else "${defaultApiKey}")
  --seed N              seed for the generated pets (default ${defaultSeed}); same seed, same pets
  --pets N              how many pets to start with, 0 to ${maxSeededPets} (default ${defaultPetCount})
  --max-store-bytes B   memory budget of the stored pets (default ${mib(defaultMemoryBudget.maxStoreBytes)});
                        when full, creates get 507 store_full. Bytes, or with K, M, G (binary)
  --max-cache-bytes B   memory budget of cached list pages (default ${mib(defaultMemoryBudget.maxPageCacheBytes)})
  --allowed-host NAME   also answer requests with this Host, repeatable; ".example.test" allows its
                        subdomains too (loopback names, IP addresses and --host are always allowed)
  --cors-origin ORIGIN  only this origin's pages may read /v1 answers, repeatable (default: any origin)
  --log                 print one line per request
  --help                show this help

Test control (no API key, no CORS, JSON only):
  curl localhost:4010/__mock/health
  curl -X POST -H 'Content-Type: application/json' -d '{"seed": 1, "pets": 50}' localhost:4010/__mock/reset`

await runCommand(help, async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string', multiple: true },
      seed: { type: 'string', default: String(defaultSeed) },
      pets: { type: 'string', default: String(defaultPetCount) },
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
  if (positionals.length > 0) throw usageError(`Unknown command "${positionals.join(' ')}".`)
  const port = integerOption('--port', values.port, 0, 65535)
  const seed = integerOption('--seed', values.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
  const pets = integerOption('--pets', values.pets, 0, maxSeededPets)
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
  if (pets >= 100_000) console.error(`Seeding ${pets} pets from seed ${seed}...`)
  // The core straight on node:http: MSW (and its start-up cost) has no part in serving a socket.
  let state: ReturnType<typeof createMockState>
  try {
    state = createMockState({ seed, pets, budget: { maxStoreBytes, maxPageCacheBytes } })
  } catch (error) {
    throw usageError((error as Error).message)
  }
  const handle = createRequestHandler({ contract, state, apiKeys, corsOrigins })
  const server = await serveHttp(resetInSteps(handle, state), {
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
  console.log(`Animal Store mock listening on ${baseUrl} (${state.store.size} pets, seed ${seed})`)
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
