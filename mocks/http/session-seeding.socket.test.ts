import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contract } from '../../contract/index.ts'
import type { MockRequest } from '../core/mock-http.ts'
import { createHttpSessions } from './http-sessions.ts'
import { type RunningHttpServer, serveHttp } from './serve-http.ts'

// A new X-Mock-Session seeds its pets in steps, as a reset does: the sessions as `npm start` builds them,
// served in-process on a real socket, with an ordering log of seeding steps and answered requests (the
// wait in ms is the bench's figure, docs/benchmarks.md; here only the order is asserted).
const pets = 200_000
const log: string[] = []
let server: RunningHttpServer

beforeAll(async () => {
  const sessions = createHttpSessions({
    contract,
    apiKeys: ['k'],
    start: { seed: 3, pets },
    maxSessions: 8,
    maxStoreBytes: 256 * 1024 * 1024,
    maxPageCacheBytes: 1024 * 1024,
    seeding: { maxWaiting: 2, onStep: () => log.push('step') },
  })
  const handle = async (request: MockRequest) => {
    const response = await sessions.handle(request)
    log.push(`answered ${request.headers['x-mock-session'] ?? 'default'} ${response.status}`)
    return response
  }
  server = await serveHttp(handle, { port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  await server.close()
})

async function health(session: string | undefined) {
  const response = await fetch(`${server.origin}/__mock/health`, {
    headers: session === undefined ? {} : { 'x-mock-session': session },
  })
  const body = await response.json()
  return { status: response.status, headers: response.headers, body }
}

describe('a new session seeding in steps', () => {
  it("answers other sessions' requests between its steps, and its own first request after its last step, with every pet", async () => {
    log.length = 0
    let finished = false
    const fresh = health('fresh').finally(() => {
      finished = true
    })
    const others: number[] = []
    for (let round = 0; !finished && round < 10_000; round++) others.push((await health(undefined)).status)
    const answer = await fresh
    expect(answer.status).toBe(200)
    expect(answer.body.pets).toBe(pets)
    expect(others.every((status) => status === 200)).toBe(true)
    const steps = log.flatMap((entry, index) => (entry === 'step' ? [index] : []))
    const first = steps[0] ?? -1
    const last = steps.at(-1) ?? -1
    // More than one step of ~10 ms each: the seeding gave the event loop back in between.
    expect(steps.length).toBeGreaterThan(1)
    expect(log.slice(first, last).filter((entry) => entry === 'answered default 200').length).toBeGreaterThan(
      0,
    )
    // The new session's own request waited for the whole seeding: answered after its last step.
    expect(log.indexOf('answered fresh 200')).toBeGreaterThan(last)
  })

  it('answers 503 with Retry-After beyond the seedings it may hold, and seeds that session on the next request', async () => {
    // Sent together, they arrive in any order: whichever comes third is refused (two may be held).
    const names = ['a', 'b', 'c']
    const answers = await Promise.all(names.map(health))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 503])
    const refusedAt = answers.findIndex((answer) => answer.status === 503)
    for (const answer of answers) if (answer.status === 200) expect(answer.body.pets).toBe(pets)
    const refused = answers[refusedAt]
    expect(refused?.headers.get('retry-after')).toBe('1')
    expect(refused?.body).toMatchObject({ code: 'service_unavailable', status: 503 })
    const again = await health(names[refusedAt])
    expect(again.status).toBe(200)
    expect(again.body.pets).toBe(pets)
  })
})
