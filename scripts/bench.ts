import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { findFreePort } from '../mocks/local-port.ts'
import { prismArguments, prismBin } from '../mocks/prism/start-prism.ts'
import { type LaunchedServer, launchServer } from './bench/launch-server.ts'
import { type ListLatency, measureListLatency } from './bench/list-latency.ts'
import { runCommand } from './run-command.ts'

const help = `Usage: npm run bench -- [options]

Measures, on loopback and in one run: a bare node:http server answering a fixed 20-pet array (the
ceiling), our mock (what npm start runs), Prism's mock, and Prism's proxy in front of our mock.
For each: requests/s, p50/p99 latency, RSS and time to first response, each as a ratio to the bare
server. Then listPets latency with a status filter at 1k, 100k and 1M stored pets, and the heap
bytes one stored pet costs. Results also go to reports/bench.json.

Options:
  --duration S      seconds of load per server (default 5, after a 1 s warm-up)
  --connections N   concurrent connections (default 32)
  --sizes LIST      store sizes for the list-latency run (default 1000,100000,1000000)
  --skip-prism      leave Prism out (it needs ~3 s to start)
  --help            show this help`

const root = fileURLToPath(new URL('..', import.meta.url))
const key = 'bench-key'
const auth = { authorization: `Bearer ${key}` }

interface Row {
  server: string
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  rssMb: number
  firstResponseMs: number
  non2xx: number
}

await runCommand(help, async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '32' },
      sizes: { type: 'string', default: '1000,100000,1000000' },
      'skip-prism': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  })
  if (values.help) return 'help'
  const duration = Number(values.duration)
  const connections = Number(values.connections)
  const sizes = values.sizes.split(',').map(Number)
  if (
    !(duration > 0 && duration <= 120) ||
    !(connections >= 1 && connections <= 1024) ||
    sizes.some((size) => !(size >= 1 && size <= 1_000_000))
  ) {
    throw Object.assign(
      new Error('--duration must be 0-120 s, --connections 1-1024, --sizes 1-1000000 each.'),
      {
        code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
      },
    )
  }
  const load = (url: string, headers: Record<string, string>, seconds = duration) =>
    autocannon({ url, headers, connections, duration: seconds })
  const measure = async (
    server: string,
    launched: LaunchedServer,
    url: string,
    headers: Record<string, string>,
  ) => {
    progress(`  ${server}: warm-up, then ${duration} s of load`)
    await load(url, headers, 1)
    const result = await load(url, headers)
    const row: Row = {
      server,
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      rssMb: launched.rssMb(),
      firstResponseMs: launched.firstResponseMs,
      non2xx: result.non2xx + result.errors,
    }
    if (row.non2xx > 0)
      progress(`  warning: ${server} answered ${row.non2xx} requests with errors or non-2xx`)
    return row
  }

  const rows: Row[] = []
  const node = process.execPath
  // What `npm start` runs (scripts/launch.mjs), without npm's own start-up in front of it.
  const mockArgs = (port: number) => [
    `${root}scripts/launch.mjs`,
    `${root}scripts/start-mock.ts`,
    '--port',
    String(port),
    '--api-key',
    key,
  ]

  progress('1/4 bare node:http server (the ceiling)')
  {
    const port = await findFreePort()
    const bare = await launchServer(node, [`${root}scripts/bench/bare-server.mjs`, String(port)], {
      url: `http://127.0.0.1:${port}/`,
    })
    rows.push(await measure('bare node:http, fixed 20 pets', bare, `http://127.0.0.1:${port}/`, {}))
    await bare.stop()
  }

  progress('2/4 our mock (npm start)')
  // npm start bundles the sources on its first run after a change (scripts/launch.mjs); measure the
  // start-up every later run has, after one run that leaves the bundle current.
  spawnSync(node, [`${root}scripts/launch.mjs`, `${root}scripts/start-mock.ts`, '--help'], {
    stdio: 'ignore',
  })
  const mockPort = await findFreePort()
  const mockUrl = `http://127.0.0.1:${mockPort}/v1/pets`
  const mock = await launchServer(node, mockArgs(mockPort), { url: mockUrl, headers: auth })
  rows.push(await measure('our mock (npm start)', mock, mockUrl, auth))
  // One create in ten lists: every create invalidates the cached list pages, so this row shows the
  // mock's uncached path under load as well.
  const mixed: autocannon.Request[] = [
    {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Bench","categoryId":1}',
    },
    ...Array.from({ length: 9 }, () => ({ method: 'GET' as const })),
  ]
  progress(`  our mock, 1 create per 10 requests: ${duration} s of load`)
  const mixedResult = await autocannon({
    url: mockUrl,
    headers: auth,
    connections,
    duration,
    requests: mixed,
  })
  rows.push({
    server: 'our mock, 1 create per 10 requests',
    requestsPerSecond: mixedResult.requests.average,
    p50Ms: mixedResult.latency.p50,
    p99Ms: mixedResult.latency.p99,
    rssMb: mock.rssMb(),
    firstResponseMs: mock.firstResponseMs,
    non2xx: mixedResult.non2xx + mixedResult.errors,
  })

  if (!values['skip-prism']) {
    progress('3/4 Prism mock (-v silent, its fastest)')
    const port = await findFreePort()
    const args = [prismBin, ...prismArguments({ mode: 'mock', logLevel: 'silent' }, port)]
    const prism = await launchServer(node, args, { url: `http://127.0.0.1:${port}/pets`, headers: auth })
    rows.push(await measure('Prism mock', prism, `http://127.0.0.1:${port}/pets`, auth))
    await prism.stop()

    progress('4/4 Prism proxy (-v silent) in front of our mock')
    const proxyPort = await findFreePort()
    const proxyArgs = [
      prismBin,
      ...prismArguments(
        { mode: 'proxy', upstream: `http://127.0.0.1:${mockPort}/v1`, logLevel: 'silent' },
        proxyPort,
      ),
    ]
    const proxy = await launchServer(node, proxyArgs, {
      url: `http://127.0.0.1:${proxyPort}/pets`,
      headers: auth,
    })
    rows.push(await measure('Prism proxy -> our mock', proxy, `http://127.0.0.1:${proxyPort}/pets`, auth))
    await proxy.stop()
  }

  progress(`list latency with ?status=sold, uncached, at ${sizes.join(', ')} stored pets`)
  const listing: ListLatency[] = []
  for (const pets of sizes) {
    progress(`  seeding ${pets} pets, then 1,000 timed lists`)
    listing.push(await measureListLatency(`http://127.0.0.1:${mockPort}`, key, pets))
  }
  await mock.stop()

  progress('bytes per stored pet (1M seeded + 100k created, heap after full GC)')
  const memory = spawnSync(node, ['--expose-gc', '--import', 'tsx', `${root}scripts/bench/store-memory.ts`], {
    encoding: 'utf8',
  })
  if (memory.status !== 0) throw new Error(`The memory measurement failed:\n${memory.stderr}`)
  const { bytesPerPet } = JSON.parse(memory.stdout) as { bytesPerPet: number }

  const report = printReport(rows, listing, bytesPerPet)
  mkdirSync(`${root}reports`, { recursive: true })
  writeFileSync(
    `${root}reports/bench.json`,
    `${JSON.stringify({ rows, listing, bytesPerPet, targets: report }, null, 2)}\n`,
  )
  console.log('\nWritten: reports/bench.json')
  return undefined
})

function progress(line: string) {
  console.error(line)
}

function printReport(rows: Row[], listing: ListLatency[], bytesPerPet: number) {
  const [bare] = rows
  if (!bare) throw new Error('The bare server was not measured; nothing to compare with.')
  const fixed = (value: number, digits = 0) =>
    value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
  console.log('\n| server | req/s | × bare | p50 ms | p99 ms | RSS MB | first response ms | × bare |')
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
  for (const row of rows) {
    console.log(
      `| ${row.server} | ${fixed(row.requestsPerSecond)} | ${fixed(row.requestsPerSecond / bare.requestsPerSecond, 2)} | ${row.p50Ms} | ${row.p99Ms} | ${fixed(row.rssMb)} | ${fixed(row.firstResponseMs)} | ${fixed(row.firstResponseMs / bare.firstResponseMs, 2)} |`,
    )
  }
  console.log('\n| stored pets | list ?status=sold p50 µs | p99 µs | p50 × smallest store |')
  console.log('|---:|---:|---:|---:|')
  const [smallest] = listing
  for (const entry of listing) {
    console.log(
      `| ${fixed(entry.pets)} | ${entry.p50Us} | ${entry.p99Us} | ${fixed(entry.p50Us / Math.max(smallest?.p50Us ?? 1, 1), 2)} |`,
    )
  }
  console.log(`\nHeap bytes per stored pet: ${fixed(bytesPerPet)}`)

  const mock = rows.find((row) => row.server.startsWith('our mock'))
  const prism = rows.find((row) => row.server === 'Prism mock')
  const largest = listing[listing.length - 1]
  const targets = [
    {
      target: 'our mock ≥ 0.60 × bare throughput',
      value: (mock?.requestsPerSecond ?? 0) / bare.requestsPerSecond,
      met: (mock?.requestsPerSecond ?? 0) >= 0.6 * bare.requestsPerSecond,
    },
    ...(prism
      ? [
          {
            target: 'our mock ≥ 10 × Prism mock throughput',
            value: (mock?.requestsPerSecond ?? 0) / prism.requestsPerSecond,
            met: (mock?.requestsPerSecond ?? 0) >= 10 * prism.requestsPerSecond,
          },
        ]
      : []),
    {
      target: 'our first response ≤ 3 × bare',
      value: (mock?.firstResponseMs ?? 0) / bare.firstResponseMs,
      met: (mock?.firstResponseMs ?? Number.POSITIVE_INFINITY) <= 3 * bare.firstResponseMs,
    },
    {
      target: 'list p50 at the largest store ≤ 1.5 × the smallest (flat)',
      value: (largest?.p50Us ?? 0) / Math.max(smallest?.p50Us ?? 1, 1),
      met: (largest?.p50Us ?? 0) <= 1.5 * Math.max(smallest?.p50Us ?? 1, 1),
    },
    { target: '≤ 300 bytes per stored pet', value: bytesPerPet, met: bytesPerPet <= 300 },
  ]
  console.log('\n| target | measured | met |')
  console.log('|---|---:|:---:|')
  for (const { target, value, met } of targets)
    console.log(`| ${target} | ${fixed(value, 2)} | ${met ? 'yes' : 'NO'} |`)
  return targets
}
