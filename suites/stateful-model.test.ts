import { describe, expect, it } from 'vitest'
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
}

/**
 * A correct in-memory Animal Store in a style unlike our mock, unless a defect is switched on: ids from a
 * seeded generator with gaps, newest first, `status` defaulted to "available", an extra field, 300 pets
 * made by other clients before the run.
 */
function createFakeApi(options: FakeOptions = {}): ModelApi & { requests: string[] } {
  const pets = new Map<number, Record<string, unknown>>()
  let nextId = 1_000_003
  let cache: Record<string, unknown>[] | undefined
  const requests: string[] = []
  const reply = (request: string, status: number, body: unknown): Reply => {
    requests.push(request)
    return { status, body, request }
  }
  const store = (pet: Record<string, unknown>) => {
    pets.set(pet.id as number, pet)
    if (options.evictAfter !== undefined && pets.size > options.evictAfter)
      pets.delete(pets.keys().next().value as number)
  }
  for (let index = 0; index < 300; index++) {
    nextId += 7
    store({ id: nextId, name: `other ${index}`, categoryId: index, status: 'sold', shelter: 'north' })
  }
  return {
    requests,
    async createPet(body) {
      const request = `POST /pets ${JSON.stringify(body)}`
      // The racy variant reads the counter, yields, then writes it: overlapping creates share an id.
      const id = nextId + 7
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
      const pet = pets.get(Number(id))
      if (pet) return reply(request, 200, { ...pet })
      if (options.placeholderForUnknown) return reply(request, 200, { id: 0, name: '', categoryId: 0 })
      return reply(request, 404, { code: 'not_found', message: 'no such pet', status: 404 })
    },
  }
}

const options = { seed: 42, maxExamples: 20, namePrefix: 'model-test ' }

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

  it('throws, blaming no server, when the adapter itself breaks', async () => {
    const api = createFakeApi()
    const broken: ModelApi = { ...api, listPets: () => Promise.reject(new TypeError('adapter bug')) }
    await expect(runStatefulModel(broken, options)).rejects.toThrow(
      /bug in the model or the ModelApi adapter/,
    )
  })
})
