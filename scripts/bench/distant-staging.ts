// Full conformance runs against our mock behind a proxy that adds 100 ms to every request: distant staging.
import { findFreePort } from '../../mocks/local-port.ts'
import { startDelayingProxy } from '../../suites/proof/delaying-proxy.ts'
import { timedConformanceRun } from './conformance-run.ts'
import { launchMock } from './launch-server.ts'
import { median } from './median.ts'

export interface DistantStaging {
  delayMs: number
  /** The client's connections to one origin (suites/network/bounded-request.ts). */
  connections: number
  /** Per round, alternating: the run behind the delaying proxy and the same run straight to the mock. */
  distant: RunFigures[]
  local: RunFigures[]
  /** Requests ÷ connections × delay: the run's round trips if every connection were always busy. */
  floorSeconds: number
}

interface RunFigures {
  wallSeconds: number
  exitCode: number
  findings: number
  /** The client's own count (conformance.json `traffic.requests`). */
  requests: number
  /** The longest chain of requests each sent after the one before was answered: round trips in a row. */
  roundTripsInARow: number
}

// Every run starts from the store `npm start` serves, so that both kinds of run do the same work.
async function freshStore(port: number): Promise<void> {
  const answer = await fetch(`http://127.0.0.1:${port}/__mock/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: '{}',
  })
  if (answer.status !== 200) throw new Error(`Resetting the mock's store failed: ${answer.status}`)
}

const connections = 32

/**
 * Whole `npm run conformance` runs against our mock (same seed each time, its store put back first),
 * alternately behind a proxy that holds every request `delayMs` before forwarding it and straight to it.
 */
export async function measureDistantStaging(rounds: number, delayMs = 100): Promise<DistantStaging> {
  const port = await findFreePort()
  const mock = await launchMock(port)
  const origin = `http://127.0.0.1:${port}`
  const exchanges: { arrivedMs: number; answeredMs: number }[] = []
  const proxy = await startDelayingProxy({
    upstream: origin,
    delayMs,
    onExchange: (exchange) => exchanges.push(exchange),
  })
  const result: DistantStaging = { delayMs, connections, distant: [], local: [], floorSeconds: 0 }
  try {
    for (let round = 0; round < rounds; round++) {
      for (const distant of [true, false]) {
        await freshStore(port)
        exchanges.length = 0
        const figures = await timedRun(distant ? proxy.origin : origin)
        figures.roundTripsInARow = distant ? longestChain(exchanges) : 0
        ;(distant ? result.distant : result.local).push(figures)
      }
    }
  } finally {
    await proxy.close()
    await mock.stop()
  }
  result.floorSeconds = (median(result.distant.map((run) => run.requests)) / connections) * (delayMs / 1000)
  return result
}

async function timedRun(origin: string): Promise<RunFigures> {
  const { wallSeconds, exitCode, report } = await timedConformanceRun(
    `${origin}/v1`,
    ['--seed', '7'],
    300_000,
  )
  return {
    wallSeconds,
    exitCode,
    findings: report.findings.length,
    requests: report.traffic?.requests ?? 0,
    roundTripsInARow: 0,
  }
}

/**
 * The most exchanges that followed one another, each arriving after the one before was answered: what the
 * run waited for in a row. Dependent requests form such chains; so do independent ones that waited for a
 * connection, so this bounds the dependent chain from above.
 */
function longestChain(exchanges: { arrivedMs: number; answeredMs: number }[]): number {
  const byAnswer = [...exchanges].sort((a, b) => a.answeredMs - b.answeredMs)
  const byArrival = [...exchanges].sort((a, b) => a.arrivedMs - b.arrivedMs)
  // Walking arrivals in order, the best chain ending before each arrival is the best of every exchange
  // answered by then.
  let bestAnswered = 0
  let answered = 0
  const chainOf = new Map<object, number>()
  for (const exchange of byArrival) {
    while (answered < byAnswer.length && (byAnswer[answered]?.answeredMs ?? 0) <= exchange.arrivedMs) {
      bestAnswered = Math.max(bestAnswered, chainOf.get(byAnswer[answered] as object) ?? 0)
      answered++
    }
    chainOf.set(exchange, bestAnswered + 1)
  }
  return Math.max(0, ...chainOf.values())
}
