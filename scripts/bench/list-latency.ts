// Times an uncached listPets at one store size, a create before each list so the page cache never answers.
import { Agent, request } from 'undici'

export interface ListLatency {
  pets: number
  p50Us: number
  p99Us: number
}

/**
 * Times `GET /pets?status=sold` at one store size with nothing cached: a create before every timed list
 * invalidates the mock's page cache, so each list really walks the store. Sequential, one connection,
 * microsecond timing (autocannon reports whole milliseconds).
 */
export async function measureListLatency(
  origin: string,
  apiKey: string,
  pets: number,
  samples = 1000,
): Promise<ListLatency> {
  const agent = new Agent({
    connections: 1,
    keepAliveTimeout: 10_000,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  })
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }
  try {
    const reset = await request(`${origin}/__mock/reset`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pets }),
    })
    if (reset.statusCode !== 200) throw new Error(`Failed to seed ${pets} pets: ${await reset.body.text()}`)
    await reset.body.dump()
    const timings: number[] = []
    for (let sample = 0; sample < samples + 100; sample++) {
      const created = await request(`${origin}/v1/pets`, {
        dispatcher: agent,
        method: 'POST',
        headers,
        body: '{"name":"Bench","categoryId":1,"status":"pending"}',
      })
      await created.body.dump()
      const started = performance.now()
      const listed = await request(`${origin}/v1/pets?status=sold`, { dispatcher: agent, headers })
      await listed.body.text()
      // The first 100 samples warm the JIT and the connection.
      if (sample >= 100) timings.push((performance.now() - started) * 1000)
    }
    timings.sort((a, b) => a - b)
    const at = (quantile: number) =>
      Math.round(timings[Math.min(timings.length - 1, Math.floor(quantile * timings.length))] ?? 0)
    return { pets, p50Us: at(0.5), p99Us: at(0.99) }
  } finally {
    await agent.close()
  }
}
