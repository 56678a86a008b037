#!/usr/bin/env node
// `animal-store-mock` (`npm start`): the mock over HTTP with sessions, or its worker / check-bundle tasks.
import { staleContractWarning } from '../contract/contract-freshness.ts'
import { contract } from '../contract/index.ts'
import { defaultApiKey } from '../mocks/core/api-keys.ts'
import type { ConditionOptions, FaultKind, Latency } from '../mocks/core/conditions.ts'
import { describeRecording, PactRecorder } from '../mocks/core/pact-recorder.ts'
import { basePathOf } from '../mocks/core/route.ts'
import { createHttpSessions } from '../mocks/http/http-sessions.ts'
import { type HttpRecording, withPactEndpoint } from '../mocks/http/pact-endpoint.ts'
import { serveHttp } from '../mocks/http/serve-http.ts'
import { writePact } from '../mocks/pact-file.ts'
import { writeServiceWorker } from '../mocks/service-worker-file.ts'
import { checkBundleCommand } from './check-bundle-command.ts'
import { helpText, parseCommand } from './cli/command-options.ts'
import { UsageError } from './cli/usage-error.ts'
import { runCommand } from './run-command.ts'
import { type PerOperation, startMockCommand } from './start-mock-options.ts'

const help = helpText(startMockCommand)

await runCommand(help, async (argv) => {
  const { values, positionals } = parseCommand(startMockCommand, argv)
  if (values.help) return 'help'
  if (positionals[0] === 'worker') {
    if (positionals.length !== 2)
      throw usageError('worker takes one argument: the public folder, e.g. "worker public".')
    console.log(`Wrote ${writeServiceWorker(positionals[1] ?? '')}: serve it from your site's root.`)
    return undefined
  }
  if (positionals[0] === 'check-bundle') {
    process.exitCode = checkBundleCommand(positionals.slice(1))
    return undefined
  }
  if (positionals.length > 0) throw usageError(`Unknown command "${positionals.join(' ')}".`)
  const { port, seed, scenario, pets } = values
  const journalSize = values['journal-size']
  const maxSessions = values['max-sessions']
  const conditions = conditionOptions(values.latency, values['fault-rate'], values['fault-kinds'])
  const maxStoreBytes = values['max-store-bytes']
  const maxPageCacheBytes = values['max-cache-bytes']
  const corsOrigins = values['cors-origin']
  const fromEnv = (process.env.MOCK_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean)
  const apiKeys = values['api-key'].length ? values['api-key'] : fromEnv.length ? fromEnv : [defaultApiKey]

  const recording = recordingOf(values.record, values.consumer)
  const stale = staleContractWarning()
  if (stale) console.error(`Warning: ${stale}`)
  if ((pets ?? 0) >= 100_000) console.error(`Seeding ${pets} pets from seed ${seed}...`)
  // The core straight on node:http: MSW (and its start-up cost) has no part in serving a socket. Every
  // session, the default one included, starts from the same options and has its own store; the stores
  // share --max-store-bytes.
  let sessions: ReturnType<typeof createHttpSessions>
  try {
    sessions = createHttpSessions({
      contract,
      apiKeys,
      corsOrigins,
      requireSession: values['require-session'],
      start: {
        seed,
        ...(pets === undefined ? {} : { pets }),
        scenario,
        ...conditions,
        journalSize,
        ...(values.date === undefined ? {} : { date: values.date }),
      },
      maxSessions,
      maxStoreBytes,
      maxPageCacheBytes,
      ...(recording ? { recorder: recording.recorder } : {}),
    })
  } catch (error) {
    throw usageError((error as Error).message)
  }
  const state = sessions.defaultState
  const server = await serveHttp(withPactEndpoint(sessions.handle, recording), {
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
  if (recording)
    console.log(
      `Recording as ${recording.recorder.consumer}: the Pact file is written on stop and on POST /__mock/pact.`,
    )
  return async () => {
    await server.close()
    if (!recording) return
    // Written once the last answer is sent: a stop mid-test still keeps everything answered.
    const file = await recording.write()
    for (const line of describeRecording(recording.recorder.summary(), file)) console.log(line)
  }
})

/** `--record DIR --consumer NAME` as a recording, or nothing without `--record`. */
function recordingOf(dir: string | undefined, consumer: string | undefined): HttpRecording | undefined {
  if (dir === undefined) {
    if (consumer !== undefined) throw usageError('--consumer names what --record DIR records: give both.')
    return undefined
  }
  if (consumer === undefined)
    throw usageError(
      '--record needs --consumer NAME, the frontend the Pact file is for (e.g. --consumer web-app).',
    )
  let recorder: PactRecorder
  try {
    recorder = new PactRecorder(contract, basePathOf(contract), { consumer })
  } catch (error) {
    throw usageError((error as Error).message)
  }
  return { recorder, write: () => writePact(recorder, dir) }
}

/** --latency and --fault-rate values (global, or per operation) and --fault-kinds, as core options. */
function conditionOptions(
  latencies: PerOperation<Latency>[],
  rates: PerOperation<number>[],
  kinds: FaultKind[] | undefined,
): ConditionOptions {
  const options: ConditionOptions = kinds ? { faultKinds: kinds } : {}
  const operations: NonNullable<ConditionOptions['operations']> = {}
  for (const { operation, value } of latencies) {
    if (operation === undefined) options.latency = value
    else operations[operation] = { ...operations[operation], latency: value }
  }
  for (const { operation, value } of rates) {
    if (operation === undefined) options.faultRate = value
    else operations[operation] = { ...operations[operation], faultRate: value }
  }
  if (Object.keys(operations).length > 0) options.operations = operations
  return options
}

function usageError(message: string): Error {
  return new UsageError(message)
}
