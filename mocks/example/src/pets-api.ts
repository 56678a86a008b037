// The example app's API client, written as a team would against the real server: typed, errors as data.
import type { ApiError, NewPet, Pet, PetStatus } from '../../../contract/types.ts'

/** What every call returns: the data, or the contract's Error the server sent. */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError }

export interface PetsApiOptions {
  /** The API's base URL with /v1, e.g. `/v1` (same origin) or `http://127.0.0.1:4010/v1`. */
  baseUrl: string
  /** Read on every call, so a UI can change or clear the key. */
  apiKey: () => string
  /** Extra headers for the next call, read on every call (the example app's "Simulate" sends Prefer). */
  headers?: () => Record<string, string>
  /** The app gives up on an answer after this many ms (default 10,000): a server may never answer. */
  timeoutMs?: number
  fetch?: typeof fetch
}

/** A deprecated operation's answer, with what its headers say about its end. */
export interface Deprecated<T> {
  value: T
  /** RFC 8594 `Sunset`, as a Date, when the server sends it. */
  sunset?: Date
  deprecated: boolean
}

/**
 * The Animal Store API as a frontend uses it: typed calls, errors as data. Written the way a team would
 * write it against the real server; the mock is what answers it in development and tests.
 * @example const api = createPetsApi({ baseUrl: '/v1', apiKey: () => key }); await api.listPets({ status: 'sold' })
 */
export function createPetsApi(options: PetsApiOptions) {
  const send = async <T>(
    path: string,
    init: RequestInit = {},
  ): Promise<{ result: ApiResult<T>; headers: Headers }> => {
    const key = options.apiKey()
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers?.() }
    if (key) headers.authorization = `Bearer ${key}`
    if (init.body) headers['content-type'] = 'application/json'
    let response: Response
    try {
      response = await (options.fetch ?? fetch)(`${options.baseUrl}${path}`, {
        ...init,
        headers,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      })
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      return failed(
        timedOut ? 'timeout' : 'network_error',
        timedOut
          ? `The server did not answer within ${(options.timeoutMs ?? 10_000) / 1000} s.`
          : `The server could not be reached: ${(error as Error).message}`,
      )
    }
    const body = await response.json().catch(() => undefined)
    if (response.ok) {
      // A success whose body cannot be read (cut short, not JSON) is a failure, not empty data.
      if (body === undefined) return failed('bad_response', 'The answer was cut short or was not JSON.')
      return { result: { ok: true, data: body as T }, headers: response.headers }
    }
    const error = isApiError(body)
      ? body
      : {
          code: 'unexpected_response',
          message: `The server answered ${response.status} without an Error body.`,
          status: response.status,
        }
    return { result: { ok: false, error }, headers: response.headers }
  }

  const failed = (code: string, message: string) => ({
    result: { ok: false as const, error: { code, message, status: 0 } },
    headers: new Headers(),
  })

  return {
    async listPets(query: { limit?: number; status?: PetStatus } = {}): Promise<ApiResult<Pet[]>> {
      const params = new URLSearchParams()
      if (query.limit !== undefined) params.set('limit', String(query.limit))
      if (query.status) params.set('status', query.status)
      const search = params.toString()
      return (await send<Pet[]>(`/pets${search ? `?${search}` : ''}`)).result
    },

    async createPet(pet: NewPet): Promise<ApiResult<Pet>> {
      return (await send<Pet>('/pets', { method: 'POST', body: JSON.stringify(pet) })).result
    },

    /** GET /pets/{petId} is deprecated (sunset 2030-12-05): the answer says so, from its headers. */
    async getPet(id: number | string): Promise<ApiResult<Deprecated<Pet>>> {
      const { result, headers } = await send<Pet>(`/pets/${encodeURIComponent(String(id))}`)
      if (!result.ok) return result
      const sunset = headers.get('sunset')
      return {
        ok: true,
        data: {
          value: result.data,
          deprecated: headers.has('deprecation'),
          ...(sunset ? { sunset: new Date(sunset) } : {}),
        },
      }
    },
  }
}

export type PetsApi = ReturnType<typeof createPetsApi>

function isApiError(value: unknown): value is ApiError {
  const candidate = value as Partial<ApiError> | undefined
  return (
    typeof candidate?.code === 'string' &&
    typeof candidate.message === 'string' &&
    typeof candidate.status === 'number'
  )
}
