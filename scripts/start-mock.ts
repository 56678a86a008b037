#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { staleContractWarning } from '../contract/contract-freshness.ts'
import { contract } from '../contract/index.ts'
import { defaultApiKey } from '../mocks/core/api-keys.ts'
import { createRequestHandler } from '../mocks/core/handle-request.ts'
import { createMockState, maxSeededPets } from '../mocks/core/mock-state.ts'
import { basePathOf } from '../mocks/core/route.ts'
import { defaultPetCount, defaultSeed } from '../mocks/core/seed-pets.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { writeServiceWorker } from '../mocks/service-worker-file.ts'
import { runCommand } from './run-command.ts'

const help = `Usage: npm start -- [options]          (installed: animal-store-mock [options])
       animal-store-mock worker <publicDir>

Serves the stateful Animal Store mock over HTTP: pets you add are there when you list or get them.
"worker <publicDir>" instead writes MSW's mockServiceWorker.js into your app's public folder, which
the browser mock needs (run it again after upgrading msw).

Options:
  --port N         port to listen on (default 4010; 0 picks a free one)
  --host H         address to bind (default 127.0.0.1)
  --api-key KEY    accepted API key, repeatable (default: env MOCK_API_KEYS, comma-separated,
                   else "${defaultApiKey}")
  --seed N         seed for the generated pets (default ${defaultSeed}); same seed, same pets
  --pets N         how many pets to start with, 0 to ${maxSeededPets} (default ${defaultPetCount})
  --log            print one line per request
  --help           show this help

Test control (no API key needed): GET /__mock/health, POST /__mock/reset {"seed": 1, "pets": 50}`

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
  const fromEnv = (process.env.MOCK_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean)
  const apiKeys = values['api-key']?.length ? values['api-key'] : fromEnv.length ? fromEnv : [defaultApiKey]

  const stale = staleContractWarning()
  if (stale) console.error(`Warning: ${stale}`)
  if (pets >= 100_000) console.error(`Seeding ${pets} pets from seed ${seed}...`)
  // The core straight on node:http: MSW (and its start-up cost) has no part in serving a socket.
  const state = createMockState({ seed, pets })
  const server = await serveHttp(createRequestHandler({ contract, state, apiKeys }), {
    port,
    host: values.host,
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

function usageError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' })
}
