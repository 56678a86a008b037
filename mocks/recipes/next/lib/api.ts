// The recipe's server-side fetch helper: every call to the Animal Store API, with the test's session passed on when a runtime flag says so.
import type { NewPet, Pet } from 'animal-store-contract-kit/contract'
import { headers } from 'next/headers.js'

/** Sends one request to the API from the app's server: key, base URL and session from the server's environment. */
async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const base = process.env.API_BASE_URL // http://127.0.0.1:4010/v1 against the mock
  if (!base) throw new Error('API_BASE_URL is not set') // not "Failed to parse URL from undefined/pets"
  const sent = new Headers(init.headers)
  sent.set('authorization', `Bearer ${process.env.API_KEY}`)
  // A runtime flag, not NODE_ENV: next start runs with NODE_ENV=production, under Playwright too.
  if (process.env.ANIMAL_STORE_MOCK_SESSIONS === '1') {
    const session = (await headers()).get('x-mock-session')
    if (session) sent.set('x-mock-session', session)
  }
  return fetch(`${base}${path}`, { ...init, headers: sent, cache: 'no-store' })
}

export async function listPets(): Promise<Pet[]> {
  const response = await apiFetch('/pets')
  // The status only: the body is the server's text, which a thrown message would carry into logs.
  if (!response.ok) throw new Error(`GET /pets answered ${response.status}`)
  return (await response.json()) as Pet[]
}

export async function createPet(pet: NewPet): Promise<Pet> {
  const response = await apiFetch('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(pet),
  })
  if (!response.ok) throw new Error(`POST /pets answered ${response.status}`)
  return (await response.json()) as Pet
}
