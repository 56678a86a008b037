// How long another session's requests wait while a new X-Mock-Session seeds: worst latency, seeding and idle.
import { Agent, request } from 'undici'
import { findFreePort } from '../../mocks/local-port.ts'
import { benchKey, launchServer, mockArgs } from './launch-server.ts'
import { median } from './median.ts'

export interface SessionSeedingWait {
  /** The pets every session seeds (`--pets`). */
  pets: number
  /** Per round: the worst wait of a default-session request while a new session seeded, in ms. */
  seedingWorstMs: number[]
  /** Per round: the worst wait of the same requests over as long with nothing seeding, in ms. */
  idleWorstMs: number[]
  /** Per round: how many default-session requests were answered while the new session seeded. */
  answeredWhileSeeding: number[]
  /** Median of seeding worst ÷ idle worst, per round. */
  ratio: number
}

/**
 * Starts our mock with `--pets pets` (and `--max-sessions 1`, so each new session evicts the last and
 * memory stays at two stores), then per round: sends a request in a new session, and times back-to-back
 * GET /v1/pets?limit=1 in the default session on another connection until it is answered; then times the
 * same requests for as long again with nothing seeding, the baseline.
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
    ratio: Number.NaN,
  }
  try {
    // Warm-up: the probe path compiled, and the connection open.
    const warm = performance.now() + 200
    await probe(() => performance.now() >= warm)
    const ratios: number[] = []
    for (let round = 0; round < rounds; round++) {
      let seeded = false
      const started = performance.now()
      const seeding = request(`${origin}/__mock/health`, {
        dispatcher: seeder,
        headers: { 'x-mock-session': `bench-seeding-${round}` },
      })
        .then(async (answer) => {
          const body = (await answer.body.json()) as { pets?: number }
          if (answer.statusCode !== 200 || body.pets !== pets)
            throw new Error(`The new session was not seeded with ${pets} pets (status ${answer.statusCode}).`)
          return undefined
        })
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
