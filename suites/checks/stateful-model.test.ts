import { describe, expect, it } from 'vitest'
import { type Int64, integerFromText, stringifyExactJson } from '../../contract/exact-json.ts'
import { type ModelApi, type Reply, runStatefulModel } from './stateful-model.ts'

interface FakeOptions {
  /** Changes a name on store (a defect), or leaves it. */
  storeName?: (name: string) => string
  /** Serves lists from a cache filled on the first list and never invalidated. */
  staleListCache?: boolean
  /** Answers an unknown id with 200 and a placeholder pet (id 0: a pet at the very id asked for could exist). */
  placeholderForUnknown?: boolean
  /** Hands out the same id to creates that overlap in time. */
  racyIds?: boolean
  /** Keeps only the last N pets. */
  evictAfter?: number
  /** Answers the Nth read of an existing pet 404, once: a replica that lagged at one moment. */
  laggingReadNth?: number
  /** Answers every Nth read of an existing pet 404: a failure that comes and goes with the traffic. */
  laggingReadEvery?: number
  /** Numbers pets from 2^62 up, as a snowflake-style id generator does (exact int64s beyond 2^53). */
  bigIds?: boolean
  /** Loses the first pet the client created when it makes its Nth. */
  loseFirstAt?: number
}

/**
 * A correct in-memory Animal Store in a style unlike our mock, unless a defect is switched on: ids from a
 * seeded generator with gaps, newest first, `status` defaulted to "available", an extra field, 300 pets
 * made by other clients before the run.
 */
function createFakeApi(options: FakeOptions = {}): ModelApi & { requests: string[] } {
  const pets = new Map<Int64, Record<string, unknown>>()
  let nextId: Int64 = options.bigIds ? 2n ** 62n : 1_000_003
  const after = (id: Int64): Int64 => (typeof id === 'bigint' ? id + 7n : id + 7)
  let cache: Record<string, unknown>[] | undefined
  const requests: string[] = []
  const created: Int64[] = []
  let reads = 0
  const reply = (request: string, status: number, body: unknown): Reply => {
    requests.push(request)
    return { status, body, request }
  }
  const store = (pet: Record<string, unknown>) => {
    pets.set(pet.id as Int64, pet)
    if (options.evictAfter !== undefined && pets.size > options.evictAfter)
      pets.delete(pets.keys().next().value as Int64)
  }
  for (let index = 0; index < 300; index++) {
    nextId = after(nextId)
    store({ id: nextId, name: `other ${index}`, categoryId: index, status: 'sold', shelter: 'north' })
  }
  return {
    requests,
    async createPet(body) {
      const request = `POST /pets ${stringifyExactJson(body)}`
      // The racy variant reads the counter, yields, then writes it: overlapping creates share an id.
      const id = after(nextId)
      if (!options.racyIds) nextId = id
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (options.racyIds) nextId = id
      const sent = body as Record<string, unknown>
      const pet = {
        id,
        name: (options.storeName ?? ((n) => n))(sent.name as string),
        categoryId: sent.categoryId,
        status: sent.status ?? 'available',
        shelter: 'north',
      }
      store(pet)
      created.push(id)
      if (created.length === options.loseFirstAt) pets.delete(created[0] as Int64)
      return reply(request, 201, { ...pet })
    },
    async listPets(query) {
      const request = `GET /pets?${new URLSearchParams(query as Record<string, string>)}`
      if (options.staleListCache) cache ??= [...pets.values()]
      const everything = cache ?? [...pets.values()]
      const page = everything
        .filter((pet) => query.status === undefined || pet.status === query.status)
        .reverse()
        .slice(0, query.limit ?? 20)
      return reply(request, 200, page)
    },
    async getPet(id) {
      const request = `GET /pets/${id}`
      const pet = pets.get(integerFromText(String(id)) ?? -1)
      if (pet) reads++
      const lagging =
        reads === options.laggingReadNth || reads % (options.laggingReadEvery ?? Number.NaN) === 0
      if (pet && !lagging) return reply(request, 200, { ...pet })
      if (options.placeholderForUnknown) return reply(request, 200, { id: 0, name: '', categoryId: 0 })
      return reply(request, 404, { code: 'not_found', message: 'no such pet', status: 404 })
    },
  }
}

const options = { seed: 42, maxExamples: 20, namePrefix: 'model-test ' }

/** The API answering each request after `wait()` ms, counting how many requests were in flight at once. */
function delayed(api: ModelApi, wait: () => number): ModelApi & { peakInFlight: number } {
  let inFlight = 0
  const held =
    <A extends unknown[]>(call: (...args: A) => Promise<Reply>) =>
    async (...args: A) => {
      inFlight++
      wrapped.peakInFlight = Math.max(wrapped.peakInFlight, inFlight)
      await new Promise((resolve) => setTimeout(resolve, wait()))
      inFlight--
      return call(...args)
    }
  const wrapped = {
    peakInFlight: 0,
    createPet: held(api.createPet),
    listPets: held(api.listPets),
    getPet: held(api.getPet),
  }
  return wrapped
}

describe('the stateful model', () => {
  it('passes a correct server that orders, numbers and defaults differently from our mock', async () => {
    const result = await runStatefulModel(createFakeApi(), options)
    expect(result).toMatchObject({ ok: true, seed: 42 })
    expect(result.created).toBeGreaterThan(20)
  })

  it('sends the same sequence for the same seed', async () => {
    const first = createFakeApi()
    const second = createFakeApi()
    await runStatefulModel(first, { ...options, maxExamples: 5 })
    await runStatefulModel(second, { ...options, maxExamples: 5 })
    expect(second.requests).toEqual(first.requests)
    expect(first.requests.length).toBeGreaterThan(10)
  })

  it('catches a name changed on store, shrunk to the one create that shows it', async () => {
    const api = createFakeApi({ storeName: (name) => name.replaceAll('<', '&lt;') })
    const result = await runStatefulModel(api, options)
    expect(result).toMatchObject({ ok: false, rule: 'changed-value', operation: 'createPet', seed: 42 })
    if (result.ok) return
    expect(result.replay).toHaveLength(1)
    expect(result.replay[0]).toMatch(/^POST \/pets .*</)
    expect(result.path).not.toBe('')
    expect(result.reproduced).toBe(true)
  })

  it('passes a correct server whose ids are int64s beyond 2^53, compared exactly', async () => {
    const api = createFakeApi({ bigIds: true })
    expect(await runStatefulModel(api, options)).toMatchObject({ ok: true })
    expect(api.requests.some((request) => /^GET \/pets\/46116860184273\d{5}$/.test(request))).toBe(true)
  })

  it('says so when the shortest failing sequence does not fail alone: it needed the state the server held', async () => {
    // The 3rd read of a pet answers 404, once: the sequence that holds it fails, the same requests later do not.
    const result = await runStatefulModel(createFakeApi({ laggingReadNth: 3 }), options)
    expect(result).toMatchObject({ ok: false, rule: 'lost-write', reproduced: false })
  })

  it('catches a list cache that never sees new pets, as a lost write with the requests that show it', async () => {
    const result = await runStatefulModel(createFakeApi({ staleListCache: true }), options)
    expect(result).toMatchObject({ ok: false, rule: 'lost-write', operation: 'listPets' })
    if (result.ok) return
    expect(result.replay.some((line) => /^(‖ )?POST \/pets/.test(line))).toBe(true)
    expect(result.replay.some((line) => /^(‖ )?GET \/pets\?/.test(line))).toBe(true)
    expect(result.replay.length).toBeLessThanOrEqual(6)
  })

  it('catches concurrent creates that get the same id', async () => {
    const result = await runStatefulModel(createFakeApi({ racyIds: true }), options)
    expect(result).toMatchObject({ ok: false, rule: 'duplicate-id', operation: 'createPet' })
    if (result.ok) return
    expect(result.replay.filter((line) => line.startsWith('‖ POST')).length).toBeGreaterThanOrEqual(2)
  })

  it('catches a placeholder pet served for an id no pet has', async () => {
    const result = await runStatefulModel(createFakeApi({ placeholderForUnknown: true }), options)
    expect(result).toMatchObject({ ok: false, rule: 'wrong-status', operation: 'getPet' })
  })

  it('catches pets evicted after many creates, in a sequence or in the final sweep', async () => {
    const result = await runStatefulModel(createFakeApi({ evictAfter: 50 }), options)
    expect(result).toMatchObject({ ok: false, rule: 'lost-write' })
  })

  it.each([
    [20, 2],
    [30, 4],
    [40, 15],
  ])(
    'blames the store, on getPet, for a pet a list leaves out that its id no longer serves either (%i kept, seed %i)',
    async (evictAfter, seed) => {
      // With these seeds a list is the first read to miss an evicted pet. Which read sees it first is how
      // the sequences and other clients' creates interleaved; the root is the same pet gone, and the
      // finding says so on the same operation, with the read that shows it.
      const result = await runStatefulModel(createFakeApi({ evictAfter }), { ...options, seed })
      expect(result).toMatchObject({ ok: false, rule: 'lost-write', operation: 'getPet' })
      if (result.ok) return
      expect(result.message).toMatch(/without pet \d+.*GET \/pets\/\d+ answered 404: the pet is gone/s)
    },
  )

  it('replays a failure from its seed, path and replayPath', async () => {
    const api = () => createFakeApi({ storeName: (name) => name.trim() })
    const failed = await runStatefulModel(api(), options)
    expect(failed.ok).toBe(false)
    if (failed.ok) return
    const replayed = await runStatefulModel(api(), {
      ...options,
      path: failed.path,
      replayPath: failed.replayPath,
    })
    expect(replayed).toMatchObject({ ok: false, rule: failed.rule, replay: failed.replay })
  })

  it("sends several sequences at once, each sequence's commands still one after another", async () => {
    const api = delayed(createFakeApi(), () => 1)
    expect(await runStatefulModel(api, { ...options, maxExamples: 5 })).toMatchObject({ ok: true })
    expect(api.peakInFlight).toBeGreaterThan(1)
  })

  it('sweeps sixteen reads at once while every reply is short, eight once one is long, to the same verdict', async () => {
    // Each read answered after a millisecond with a reply of `size` characters, counting reads in flight:
    // five sequences (seed 42) never hold more than eight at once themselves, so more is the sweep's.
    const sweep = async (size: number, defect: FakeOptions = {}) => {
      const api = createFakeApi(defect)
      let inFlight = 0
      let peak = 0
      const result = await runStatefulModel(
        {
          ...api,
          getPet: async (id) => {
            peak = Math.max(peak, ++inFlight)
            await new Promise((resolve) => setTimeout(resolve, 1))
            inFlight--
            return { ...(await api.getPet(id)), size }
          },
        },
        { ...options, maxExamples: 5 },
      )
      return { result, peak }
    }
    const short = await sweep(200)
    const long = await sweep(5_000)
    expect(short).toEqual({ result: expect.objectContaining({ ok: true }), peak: 16 })
    expect(long).toEqual({ result: short.result, peak: 8 })
    // A pet lost at the run's last create is found by the sweep alone: the same finding at either width.
    const lost = await sweep(200, { loseFirstAt: 38 })
    expect(lost.result).toMatchObject({
      ok: false,
      rule: 'lost-write',
      message: expect.stringMatching(/^Final sweep/),
    })
    expect((await sweep(5_000, { loseFirstAt: 38 })).result).toEqual(lost.result)
  })

  it('says its writes are over once, before the final sweep, which only reads', async () => {
    const api = createFakeApi()
    let over = 0
    let writtenAfter = 0
    let readAfter = 0
    const result = await runStatefulModel(
      {
        createPet: (body) => {
          if (over) writtenAfter++
          return api.createPet(body)
        },
        listPets: (query) => {
          if (over) readAfter++
          return api.listPets(query)
        },
        getPet: (id) => {
          if (over) readAfter++
          return api.getPet(id)
        },
      },
      { ...options, maxExamples: 5, onWritesOver: () => over++ },
    )
    expect(result).toMatchObject({ ok: true })
    expect({ over, writtenAfter }).toEqual({ over: 1, writtenAfter: 0 })
    // The sweep: every pet created, and the four lists.
    expect(readAfter).toBe((result as { created: number }).created + 4)
  })

  it('shrinks the lowest-numbered failing sequence, however the answers were timed', async () => {
    // Sequences answered in a different order each time: the finding, its path and its replay stay the same.
    const run = (wait: () => number) =>
      runStatefulModel(delayed(createFakeApi({ storeName: (name) => name.trim() }), wait), options)
    const inOrder = await run(() => 0)
    const shuffled = await run(() => Math.floor(Math.random() * 4))
    const reversed = await run(() => 3)
    expect(inOrder).toMatchObject({ ok: false, rule: 'changed-value' })
    expect(shuffled).toEqual(inOrder)
    expect(reversed).toEqual(inOrder)
  })

  it.each([
    ['a placeholder for an unknown id', { placeholderForUnknown: true }],
    ['a list cache that never sees new pets', { staleListCache: true }],
  ] as const)(
    'blames the same read for %s, however the reads sent together were answered',
    async (_, defect) => {
      // Reads in a row go at once: the first failing one in the sequence's order is the finding, not the first
      // to be answered.
      const run = (wait: () => number) => runStatefulModel(delayed(createFakeApi(defect), wait), options)
      const inOrder = await run(() => 0)
      expect(inOrder.ok).toBe(false)
      expect(await run(() => Math.floor(Math.random() * 4))).toEqual(inOrder)
      let later = 8
      expect(await run(() => (later = later > 0 ? later - 1 : 8))).toEqual(inOrder)
    },
  )

  it('stops shrinking at its request budget, and still reports the defect it found', async () => {
    // Every 8th read of a pet answers 404: as the reads add up, smaller sequences fail and pass by turns,
    // and shrinking would go on replaying them (thousands of requests, hours at a distance).
    const result = await runStatefulModel(createFakeApi({ laggingReadEvery: 8 }), options)
    expect(result).toMatchObject({ ok: false, rule: 'lost-write' })
    if (result.ok) return
    // The candidate under way when the budget ran out finishes: at most 30 commands of up to 6 requests.
    expect(result.shrinkingStopped).toBeGreaterThanOrEqual(600)
    expect(result.shrinkingStopped).toBeLessThan(600 + 30 * 6)
  })

  it('throws, blaming no server, when the adapter itself breaks', async () => {
    const api = createFakeApi()
    const broken: ModelApi = { ...api, listPets: () => Promise.reject(new TypeError('adapter bug')) }
    await expect(runStatefulModel(broken, options)).rejects.toThrow(
      /bug in the model or the ModelApi adapter/,
    )
  })
})
