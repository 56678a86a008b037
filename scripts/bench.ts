// `npm run bench`: the mock's CPU and request rate as ratios to a bare node:http server, then other costs.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findFreePort } from '../mocks/local-port.ts'
import { type PrismOptions, prismArguments, prismBin } from '../mocks/prism/start-prism.ts'
import { type ConformanceStart, measureConformanceStart } from './bench/conformance-start.ts'
import { type DistantStaging, measureDistantStaging } from './bench/distant-staging.ts'
import { compareDistantVerdicts, type DistantVerdict } from './bench/distant-verdicts.ts'
import { benchKey, type LaunchedServer, launchMock, launchServer, mockArgs } from './bench/launch-server.ts'
import { type ListLatency, measureListLatency } from './bench/list-latency.ts'
import {
  detectLoadGenerator,
  type LoadGenerator,
  type LoadRequest,
  pinnedCommand,
  runLoad,
} from './bench/load-generator.ts'
import { median } from './bench/median.ts'
import { cpuSeconds } from './bench/process-cpu.ts'
import { measureSessionCost, type SessionCost } from './bench/session-cost.ts'
import { measureSessionSeedingWait, type SessionSeedingWait } from './bench/session-seeding.ts'
import { measureThrottledRuns, type ThrottledRun } from './bench/throttled-run.ts'
import { benchCommand as command } from './bench-options.ts'
import { helpText, parseCommand } from './cli/command-options.ts'
import { runCommand } from './run-command.ts'

const help = helpText(command)

const root = fileURLToPath(new URL('..', import.meta.url))
const key = benchKey
const auth = { authorization: `Bearer ${key}` }
const node = process.execPath

/** One scenario: the same load against the bare server and our mock, in alternating rounds. */
interface ScenarioRow {
  scenario: string
  bare: RoundFigures[]
  mock: RoundFigures[]
  /** bare CPU per request ÷ ours, per round. */
  cpuRatios: number[]
  /** our request rate ÷ bare's, per round. */
  rateRatios: number[]
}

interface RoundFigures {
  requestsPerSecond: number
  cpuUsPerRequest: number
  p50Ms: number
  p99Ms: number
  failed: number
}

/** CPU µs per request of our mock with the request journal on (default) and off, per round. */
interface JournalCost {
  on: number[]
  off: number[]
}

interface OtherRow {
  server: string
  requestsPerSecond: number
  cpuUsPerRequest: number
  p99Ms: number
  rssMb: number
  firstResponseMs: number
}

await runCommand(help, async (argv) => {
  const { values } = parseCommand(command, argv)
  if (values.help) return 'help'
  const { duration, rounds, connections, sizes } = values
  const loadName = values.load
  const conformanceRounds = values['conformance-rounds']
  const seedingPets = values['seeding-pets']
  const generator = detectLoadGenerator(loadName)
  console.log(`Load generator: ${generator.describe}`)
  const work = mkdtempSync(join(tmpdir(), 'animal-store-bench-'))
  try {
    return await benchmark(generator, {
      duration,
      rounds,
      connections,
      sizes,
      skipPrism: values['skip-prism'],
      conformanceRounds,
      seedingPets,
      skipThrottled: values['skip-throttled'],
      distantRounds: values['distant-rounds'],
      distantVerdicts: values['distant-verdicts'],
      work,
    })
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

async function benchmark(
  generator: LoadGenerator,
  options: {
    duration: number
    rounds: number
    connections: number
    sizes: number[]
    skipPrism: boolean
    conformanceRounds: number
    seedingPets: number
    skipThrottled: boolean
    distantRounds: number
    distantVerdicts: boolean
    work: string
  },
) {
  const { duration, rounds, connections } = options
  // scripts/launch.mjs bundles the sources on its first run after a change; measure the start-up every
  // later run has.
  spawnSync(node, [`${root}scripts/launch.mjs`, `${root}scripts/start-mock.ts`, '--help'], {
    stdio: 'ignore',
  })

  progress('1/6 time to first response: bare server and our mock, 5 starts each, alternating')
  const starts = { bare: [] as number[], mock: [] as number[] }
  for (let start = 0; start < 5; start++) {
    const barePort = await findFreePort()
    const bare = await launchServer(node, [`${root}scripts/bench/bare-server.mjs`, String(barePort)], {
      url: `http://127.0.0.1:${barePort}/`,
    })
    starts.bare.push(bare.firstResponseMs)
    await bare.stop()
    const mockPort = await findFreePort()
    const mock = await launchMock(mockPort)
    starts.mock.push(mock.firstResponseMs)
    await mock.stop()
  }

  progress(
    `2/6 our mock and a bare server sending its page, both on ${generator.serverCore === undefined ? 'any core' : `core ${generator.serverCore}`}`,
  )
  const mockPort = await findFreePort()
  const mockUrl = `http://127.0.0.1:${mockPort}/v1/pets`
  const mock = await launchServer(...pinnedCommand(generator, node, mockArgs(mockPort)), {
    url: mockUrl,
    headers: auth,
  })
  const page = await (await fetch(`${mockUrl}?limit=20`, { headers: auth })).text()
  const bodyFile = join(options.work, 'page.json')
  writeFileSync(bodyFile, page)
  const barePort = await findFreePort()
  const bareUrl = `http://127.0.0.1:${barePort}/v1/pets`
  const bare = await launchServer(
    ...pinnedCommand(generator, node, [`${root}scripts/bench/bare-server.mjs`, String(barePort), bodyFile]),
    { url: bareUrl },
  )

  const scenarios: { name: string; query: string; creates?: LoadRequest['creates'] }[] = [
    { name: 'GET /v1/pets?limit=20', query: '?limit=20' },
    { name: 'GET /v1/pets?status=sold', query: '?status=sold' },
    {
      name: '1 create in 10 requests (limit=20)',
      query: '?limit=20',
      creates: { every: 10, body: '{"name":"Bench","categoryId":1}' },
    },
  ]
  const rows: ScenarioRow[] = []
  for (const scenario of scenarios) {
    progress(`3/6 ${scenario.name}: ${rounds} rounds of ${duration} s, bare and mock alternating`)
    const load = (server: LaunchedServer, url: string, seconds: number) =>
      measureRound(generator, server, {
        url: `${url}${scenario.query}`,
        headers: auth,
        connections,
        seconds,
        ...(scenario.creates ? { creates: scenario.creates } : {}),
      })
    await load(bare, bareUrl, 1)
    await load(mock, mockUrl, 1)
    const row: ScenarioRow = { scenario: scenario.name, bare: [], mock: [], cpuRatios: [], rateRatios: [] }
    for (let round = 0; round < rounds; round++) {
      const bareRound = await load(bare, bareUrl, duration)
      const mockRound = await load(mock, mockUrl, duration)
      row.bare.push(bareRound)
      row.mock.push(mockRound)
      row.cpuRatios.push(bareRound.cpuUsPerRequest / mockRound.cpuUsPerRequest)
      row.rateRatios.push(mockRound.requestsPerSecond / bareRound.requestsPerSecond)
      if (mockRound.failed > 0)
        progress(`  warning: our mock answered ${mockRound.failed} requests with errors or non-2xx`)
    }
    rows.push(row)
  }
  await bare.stop()

  // The journal is on by default, so its cost is inside every mock figure above; this says how much, on
  // two fresh mocks (the one above has served thousands of creates), alternating.
  progress(`3/6 the journal's cost: GET /v1/pets?limit=20 on fresh mocks with and without it, alternating`)
  const launchFresh = async (extra: string[]) => {
    const port = await findFreePort()
    const url = `http://127.0.0.1:${port}/v1/pets?limit=20`
    const server = await launchServer(...pinnedCommand(generator, node, [...mockArgs(port), ...extra]), {
      url,
      headers: auth,
    })
    return { server, url }
  }
  const withJournal = await launchFresh([])
  const withoutJournal = await launchFresh(['--journal-size', '0'])
  const journalRound = async ({ server, url }: { server: LaunchedServer; url: string }, seconds: number) =>
    (await measureRound(generator, server, { url, headers: auth, connections, seconds })).cpuUsPerRequest
  await journalRound(withJournal, 1)
  await journalRound(withoutJournal, 1)
  const journal: JournalCost = { on: [], off: [] }
  for (let round = 0; round < rounds; round++) {
    journal.off.push(await journalRound(withoutJournal, duration))
    journal.on.push(await journalRound(withJournal, duration))
  }
  await withJournal.server.stop()
  await withoutJournal.server.stop()
  progress(
    `3/6 sessions unused: the core's handler alone and behind the session pool, ${rounds + 2} rounds in-process`,
  )
  const sessions = measureSessionCost(rounds + 2, Math.max(20_000, Math.round(duration * 100_000)))
  const others: OtherRow[] = []

  if (!options.skipPrism) {
    progress('4/6 Prism mock (-v silent, its fastest) and Prism proxy in front of our mock')
    const prisms: [string, PrismOptions][] = [
      ['Prism mock', { mode: 'mock', logLevel: 'silent' }],
      [
        'Prism proxy -> our mock',
        { mode: 'proxy', upstream: `http://127.0.0.1:${mockPort}/v1`, logLevel: 'silent' },
      ],
    ]
    for (const [name, prismOptions] of prisms) {
      const port = await findFreePort()
      const url = `http://127.0.0.1:${port}/pets`
      const prism = await launchServer(
        ...pinnedCommand(generator, node, [prismBin, ...prismArguments(prismOptions, port)]),
        { url, headers: auth },
      )
      others.push(await measureOther(generator, name, prism, url, duration, connections))
      await prism.stop()
    }
  }

  progress(
    `5/6 list latency with ?status=sold, uncached, at ${options.sizes.join(', ')} stored pets; heap per pet`,
  )
  const listing: ListLatency[] = []
  for (const pets of options.sizes)
    listing.push(await measureListLatency(`http://127.0.0.1:${mockPort}`, key, pets))
  const mockRssMb = mock.rssMb()
  await mock.stop()
  const memory = spawnSync(node, ['--expose-gc', '--import', 'tsx', `${root}scripts/bench/store-memory.ts`], {
    encoding: 'utf8',
  })
  if (memory.status !== 0) throw new Error(`The memory measurement failed:\n${memory.stderr}`)
  const { bytesPerPet } = JSON.parse(memory.stdout) as { bytesPerPet: number }

  let seeding: SessionSeedingWait | undefined
  if (options.seedingPets > 0) {
    progress(
      `5/6 another session's worst wait while new sessions start with ${options.seedingPets} seeded pets, against none starting, ${rounds} rounds`,
    )
    seeding = await measureSessionSeedingWait(options.seedingPets, rounds)
  }

  let conformance: ConformanceStart | undefined
  if (options.conformanceRounds > 0) {
    progress(
      `6/6 conformance: ${options.conformanceRounds} full runs against our mock, alternating with vitest running one trivial test file`,
    )
    conformance = await measureConformanceStart(options.conformanceRounds)
  }
  let distant: DistantStaging | undefined
  if (options.distantRounds > 0) {
    progress(
      `distant staging: ${options.distantRounds} full runs behind a proxy adding 100 ms to every request, alternating with runs straight to the mock`,
    )
    distant = await measureDistantStaging(options.distantRounds)
  }
  let verdicts: DistantVerdict[] | undefined
  if (options.distantVerdicts) {
    progress('distant verdicts: every proof server judged straight and behind the 100 ms proxy')
    verdicts = await compareDistantVerdicts()
  }
  let throttled: ThrottledRun[] = []
  if (!options.skipThrottled) {
    progress(
      'throttled: a full run behind a 20 r/s, burst 40 limit, refusing with 429 + Retry-After, 429, and a 503 page',
    )
    throttled = await measureThrottledRuns()
  }
  const targets = printReport({
    generator,
    rows,
    journal,
    sessions,
    others,
    starts,
    listing,
    bytesPerPet,
    mockRssMb,
    seeding,
    conformance,
    distant,
    verdicts,
    throttled,
  })
  mkdirSync(`${root}reports`, { recursive: true })
  writeFileSync(
    `${root}reports/bench.json`,
    `${JSON.stringify({ loadGenerator: generator, rows, journal, sessions, others, starts, listing, bytesPerPet, mockRssMb, seeding, conformance, distant, verdicts, throttled, targets }, null, 2)}\n`,
  )
  console.log('\nWritten: reports/bench.json')
  return undefined
}

/** One round of load on one server, with the CPU time that server spent on it. */
async function measureRound(
  generator: LoadGenerator,
  server: LaunchedServer,
  load: LoadRequest,
): Promise<RoundFigures> {
  const before = cpuSeconds(server.pid)
  const result = await runLoad(generator, load)
  const used = cpuSeconds(server.pid) - before
  return {
    requestsPerSecond: result.requestsPerSecond,
    cpuUsPerRequest: (used * 1e6) / Math.max(result.requests, 1),
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    failed: result.failed,
  }
}

async function measureOther(
  generator: LoadGenerator,
  server: string,
  launched: LaunchedServer,
  url: string,
  duration: number,
  connections: number,
): Promise<OtherRow> {
  await runLoad(generator, { url, headers: auth, connections, seconds: 1 })
  const round = await measureRound(generator, launched, {
    url,
    headers: auth,
    connections,
    seconds: duration,
  })
  return {
    server,
    requestsPerSecond: round.requestsPerSecond,
    cpuUsPerRequest: round.cpuUsPerRequest,
    p99Ms: round.p99Ms,
    rssMb: launched.rssMb(),
    firstResponseMs: launched.firstResponseMs,
  }
}

function progress(line: string) {
  console.error(line)
}

function fixed(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
}

function range(values: number[]): string {
  return `${fixed(Math.min(...values), 2)}–${fixed(Math.max(...values), 2)}`
}

function printReport(report: {
  generator: LoadGenerator
  rows: ScenarioRow[]
  journal: JournalCost
  sessions: SessionCost
  others: OtherRow[]
  starts: { bare: number[]; mock: number[] }
  listing: ListLatency[]
  bytesPerPet: number
  mockRssMb: number
  seeding: SessionSeedingWait | undefined
  conformance: ConformanceStart | undefined
  distant: DistantStaging | undefined
  verdicts: DistantVerdict[] | undefined
  throttled: ThrottledRun[]
}) {
  const { generator, rows, others, starts, listing, bytesPerPet, conformance } = report
  console.log(`\nLoad generator: ${generator.describe}`)
  console.log(
    '\n| scenario | bare req/s | mock req/s | rate × bare | bare CPU µs/req | mock CPU µs/req | CPU efficiency (bare ÷ mock) | over rounds |',
  )
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
  for (const row of rows) {
    console.log(
      `| ${row.scenario} | ${fixed(median(row.bare.map((r) => r.requestsPerSecond)))} | ${fixed(median(row.mock.map((r) => r.requestsPerSecond)))} | ${fixed(median(row.rateRatios), 2)} | ${fixed(median(row.bare.map((r) => r.cpuUsPerRequest)), 1)} | ${fixed(median(row.mock.map((r) => r.cpuUsPerRequest)), 1)} | ${fixed(median(row.cpuRatios), 2)} | ${range(row.cpuRatios)} |`,
    )
  }
  const on = median(report.journal.on)
  const off = median(report.journal.off)
  console.log('\n| request journal (GET /v1/pets?limit=20) | mock CPU µs/req | × journal off |')
  console.log('|---|---:|---:|')
  console.log(`| off (--journal-size 0) | ${fixed(off, 1)} | 1.00 |`)
  console.log(`| on (default, 1,000 entries) | ${fixed(on, 1)} | ${fixed(on / off, 2)} |`)
  const { sessions } = report
  console.log('\n| sessions (GET /v1/pets?limit=20, in-process) | ns/req | × without sessions |')
  console.log('|---|---:|---:|')
  console.log(
    `| without sessions (the core's handler alone) | ${fixed(median(sessions.withoutSessions))} | 1.00 |`,
  )
  console.log(
    `| sessions unused (no X-Mock-Session) | ${fixed(median(sessions.unusedSessions))} | ${fixed(sessions.ratio, 2)} |`,
  )
  if (generator.name === 'autocannon')
    console.log(
      '\nNote: autocannon shares the CPU with the servers, so these ratios are compressed toward 1.',
    )

  const bareStart = median(starts.bare)
  const mockStart = median(starts.mock)
  console.log('\n| server | req/s | CPU µs/req | p99 ms | RSS MB | first response ms | × bare |')
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  console.log(`| bare node:http | | | | | ${fixed(bareStart)} | 1.00 |`)
  console.log(
    `| our mock (npm start) | | | | ${fixed(report.mockRssMb)} | ${fixed(mockStart)} | ${fixed(mockStart / bareStart, 2)} |`,
  )
  for (const row of others) {
    console.log(
      `| ${row.server} | ${fixed(row.requestsPerSecond)} | ${fixed(row.cpuUsPerRequest, 1)} | ${row.p99Ms} | ${fixed(row.rssMb)} | ${fixed(row.firstResponseMs)} | ${fixed(row.firstResponseMs / bareStart, 2)} |`,
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
  const { seeding } = report
  if (seeding) {
    console.log(
      `\n| another session's GET /v1/pets?limit=1 while new sessions start with ${fixed(seeding.pets)} seeded pets | worst ms | answered | sessions started | × none starting |`,
    )
    console.log('|---|---:|---:|---:|---:|')
    console.log(
      `| no session starting (as long again) | ${fixed(median(seeding.idleWorstMs), 1)} | | | 1.00 |`,
    )
    console.log(
      `| new sessions starting | ${fixed(median(seeding.seedingWorstMs), 1)} | ${fixed(median(seeding.answeredWhileSeeding))} | ${fixed(median(seeding.sessionsStarted))} | ${fixed(seeding.ratio, 2)} |`,
    )
  }
  if (conformance)
    console.log(
      `\nConformance: a full run against our mock takes ${fixed(conformance.conformanceRunMs)} ms, vitest running one trivial test file ${fixed(conformance.trivialVitestMs)} ms (medians): ${fixed(conformance.ratio, 2)} ×`,
    )

  const efficiency = (index: number) => median(rows[index]?.cpuRatios ?? [Number.NaN])
  const mockCpu = median(rows[0]?.mock.map((r) => r.cpuUsPerRequest) ?? [Number.NaN])
  const prism = others.find((row) => row.server === 'Prism mock')
  const largest = listing[listing.length - 1]
  const targets = [
    { target: 'CPU efficiency, GET limit=20 ≥ 0.70', value: efficiency(0), met: efficiency(0) >= 0.7 },
    { target: 'CPU efficiency, status filter ≥ 0.60', value: efficiency(1), met: efficiency(1) >= 0.6 },
    { target: 'CPU efficiency, 1 create in 10 ≥ 0.60', value: efficiency(2), met: efficiency(2) >= 0.6 },
    {
      target: 'sessions unused ≤ 1.05 × without sessions',
      value: report.sessions.ratio,
      met: report.sessions.ratio <= 1.05,
    },
    { target: 'first response ≤ 2 × bare', value: mockStart / bareStart, met: mockStart <= 2 * bareStart },
    // By CPU per request, as against the bare server: Prism's request rate swings with the machine's load.
    ...(prism
      ? [
          {
            target: 'our mock ≥ 10 × Prism mock (CPU per request)',
            value: prism.cpuUsPerRequest / mockCpu,
            met: prism.cpuUsPerRequest >= 10 * mockCpu,
          },
        ]
      : []),
    {
      target: 'list p50 at the largest store ≤ 1.5 × the smallest (flat)',
      value: (largest?.p50Us ?? 0) / Math.max(smallest?.p50Us ?? 1, 1),
      met: (largest?.p50Us ?? 0) <= 1.5 * Math.max(smallest?.p50Us ?? 1, 1),
    },
    { target: '≤ 300 bytes per stored pet', value: bytesPerPet, met: bytesPerPet <= 300 },
    ...(seeding
      ? [
          {
            target: "another session's worst wait while new sessions start ≤ 50 ms",
            value: median(seeding.seedingWorstMs),
            met: median(seeding.seedingWorstMs) <= 50,
          },
        ]
      : []),
    ...(conformance
      ? [
          {
            target: 'full conformance run ≤ 1.5 × vitest on one trivial test file',
            value: conformance.ratio,
            met: conformance.ratio <= 1.5,
          },
        ]
      : []),
  ]
  const { distant } = report
  if (distant) {
    const wall = (runs: DistantStaging['local']) => median(runs.map((run) => run.wallSeconds))
    const requests = median(distant.distant.map((run) => run.requests))
    const inARow = median(distant.distant.map((run) => run.roundTripsInARow))
    console.log(
      `\n| our mock, ${distant.delayMs} ms added to every request | wall s | requests | round trips in a row | floor s (requests ÷ ${distant.connections} connections × delay) | × local run |`,
    )
    console.log('|---|---:|---:|---:|---:|---:|')
    console.log(
      `| behind the delaying proxy | ${fixed(wall(distant.distant), 2)} | ${fixed(requests)} | ${fixed(inARow)} (${fixed((inARow * distant.delayMs) / 1000, 1)} s) | ${fixed(distant.floorSeconds, 2)} | ${fixed(wall(distant.distant) / wall(distant.local), 2)} |`,
    )
    console.log(
      `| straight to the mock | ${fixed(wall(distant.local), 2)} | ${fixed(median(distant.local.map((run) => run.requests)))} | | | 1.00 |`,
    )
    const passed = [...distant.distant, ...distant.local].every(
      (run) => run.exitCode === 0 && run.findings === 0,
    )
    targets.push({
      target: `distant staging (${distant.delayMs} ms a request): 0 findings, wall < 4 s`,
      value: wall(distant.distant),
      met: passed && wall(distant.distant) < 4,
    })
  }
  const { verdicts } = report
  if (verdicts) {
    const different = verdicts.filter((verdict) => !verdict.same)
    console.log(
      `\nProof servers judged straight and 100 ms away: ${verdicts.length - different.length} of ${verdicts.length} with the same exit code and findings.`,
    )
    for (const { server, local, distant } of different)
      console.log(
        `- ${server}: straight exit ${local.code} [${local.findings.join('; ')}]; distant exit ${distant.code} [${distant.findings.join('; ')}]`,
      )
    targets.push({
      target: 'every proof server: the same findings 100 ms away as straight',
      value: different.length,
      met: different.length === 0,
    })
  }
  if (report.throttled.length > 0) {
    console.log(
      '\n| behind 20 r/s, burst 40 | exit | findings | requests | throttled | retried | wall s | budget s |',
    )
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
    for (const run of report.throttled)
      console.log(
        `| ${run.limit} | ${run.exitCode} | ${run.findings} | ${run.requests} | ${run.throttled} | ${run.retried} | ${fixed(run.wallSeconds, 1)} | ${fixed(run.budgetSeconds, 1)} |`,
      )
  }
  for (const run of report.throttled)
    targets.push({
      target: `behind 20 r/s (${run.limit}): 0 findings, wall ≤ 1.2 × requests/20 + 5 s`,
      value: run.wallSeconds / run.budgetSeconds,
      met: run.exitCode === 0 && run.findings === 0 && run.wallSeconds <= run.budgetSeconds,
    })
  console.log('\n| target | measured | met |')
  console.log('|---|---:|:---:|')
  for (const { target, value, met } of targets)
    console.log(`| ${target} | ${fixed(value, 2)} | ${met ? 'yes' : 'NO'} |`)
  return targets
}
