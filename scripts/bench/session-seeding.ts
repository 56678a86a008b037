// How long another session's requests wait while new X-Mock-Session names start: worst latency, starting and idle.
import { Agent, request } from 'undici'
import { findFreePort } from '../../mocks/local-port.ts'
import { benchKey, launchServer, mockArgs } from './launch-server.ts'
import { median } from './median.ts'

export interface SessionSeedingWait {
  /** The pets every session seeds (`--pets`). */
  pets: number
  /** Per round: the worst wait of a default-session request while new sessions started, in ms. */
  seedingWorstMs: number[]
  /** Per round: the worst wait of the same requests over as long with nothing seeding, in ms. */
  idleWorstMs: number[]
  /** Per round: how many default-session requests were answered while the new sessions started. */
  answeredWhileSeeding: number[]
  /** Per round: how many new sessions started (each answered with every seeded pet). */
  sessionsStarted: number[]
  /** Median of seeding worst ÷ idle worst, per round. */
  ratio: number
}

// A round starts new sessions one after another for at least this long, so that even when a new
// session costs nothing to start the probes have a window to be timed in; bounded by a count.
const startingWindowMs = 300
const maxSessionsPerRound = 2000

/**
 * Starts our mock with `--pets pets` (and `--max-sessions 1`, so each new session evicts the last and
 * memory stays at two stores), then per round: starts new sessions one after another (each answered with
 * every seeded pet) for at least 300 ms, and times back-to-back GET /v1/pets?limit=1 in the default
 * session on another connection meanwhile; then times the same requests for as long again with no
 * session starting, the baseline.
 */
export async function measureSessionSeedingWait(pets: number, rounds: number): Promise<SessionSeedingWait> {
  const port = await findFreePort()
  const origin = `http://127.0.0.1:${port}`
  const auth = { authorization: `Bearer ${benchKey}` }
  const mock = await launchServer(
    process.execPath,
    [...mockArgs(port), '--pets', String(pets), '--max-sessions', '1'],
    { url: `${origin}/v1/pets?limit=1`, headers: auth },
    120_000,
  )
  const prober = new Agent({ connections: 1 })
  const seeder = new Agent({ connections: 1, headersTimeout: 120_000 })
  /** Back-to-back probes until `until()` says stop: the worst latency and how many were sent. */
  const probe = async (until: () => boolean) => {
    let worst = 0
    let count = 0
    while (!until()) {
      const started = performance.now()
      const answer = await request(`${origin}/v1/pets?limit=1`, { dispatcher: prober, headers: auth })
      await answer.body.dump()
      worst = Math.max(worst, performance.now() - started)
      count++
    }
    return { worst, count }
  }
  const result: SessionSeedingWait = {
    pets,
    seedingWorstMs: [],
    idleWorstMs: [],
    answeredWhileSeeding: [],
    sessionsStarted: [],
    ratio: Number.NaN,
  }
  try {
    // Warm-up: the probe path compiled, and the connection open.
    const warm = performance.now() + 200
    await probe(() => performance.now() >= warm)
    const ratios: number[] = []
    for (let round = 0; round < rounds; round++) {
      let seeded = false
      let sessionsStarted = 0
      const started = performance.now()
      const startSessions = async () => {
        while (
          sessionsStarted < maxSessionsPerRound &&
          (sessionsStarted === 0 || performance.now() - started < startingWindowMs)
        ) {
          const answer = await request(`${origin}/__mock/health`, {
            dispatcher: seeder,
            headers: { 'x-mock-session': `bench-seeding-${round}-${sessionsStarted}` },
          })
          const body = (await answer.body.json()) as { pets?: number }
          if (answer.statusCode !== 200 || body.pets !== pets)
            throw new Error(`A new session did not start with ${pets} pets (status ${answer.statusCode}).`)
          sessionsStarted++
        }
        return undefined
      }
      const seeding = startSessions()
        // Held as a value until the probes stop, so a failure is reported rather than left unhandled.
        .catch((error: unknown) => error)
        .finally(() => {
          seeded = true
        })
      const during = await probe(() => seeded)
      const failure = await seeding
      if (failure !== undefined) throw failure
      const took = performance.now() - started
      const idleUntil = performance.now() + took
      const idle = await probe(() => performance.now() >= idleUntil)
      result.seedingWorstMs.push(during.worst)
      result.idleWorstMs.push(idle.worst)
      result.answeredWhileSeeding.push(during.count)
      result.sessionsStarted.push(sessionsStarted)
      ratios.push(during.worst / idle.worst)
    }
    result.ratio = median(ratios)
    return result
  } finally {
    await prober.close()
    await seeder.close()
    await mock.stop()
  }
}
