import type { ApiError, NewPet, Pet, PetStatus } from '../../../contract/types.ts'

/** What every call returns: the data, or the contract's Error the server sent. */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError }

export interface PetsApiOptions {
  /** The API's base URL with /v1, e.g. `/v1` (same origin) or `http://127.0.0.1:4010/v1`. */
  baseUrl: string
  /** Read on every call, so a UI can change or clear the key. */
  apiKey: () => string
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
    const headers: Record<string, string> = { accept: 'application/json' }
    if (key) headers.authorization = `Bearer ${key}`
    if (init.body) headers['content-type'] = 'application/json'
    let response: Response
    try {
      response = await (options.fetch ?? fetch)(`${options.baseUrl}${path}`, { ...init, headers })
    } catch (error) {
      return {
        result: {
          ok: false,
          error: {
            code: 'network_error',
            message: `The server could not be reached: ${(error as Error).message}`,
            status: 0,
          },
        },
        headers: new Headers(),
      }
    }
    const body = await response.json().catch(() => undefined)
    if (response.ok) return { result: { ok: true, data: body as T }, headers: response.headers }
    const error = isApiError(body)
      ? body
      : {
          code: 'unexpected_response',
          message: `The server answered ${response.status} without an Error body.`,
          status: response.status,
        }
    return { result: { ok: false, error }, headers: response.headers }
  }

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
