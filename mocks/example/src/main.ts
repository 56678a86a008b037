/// <reference types="vite/client" />

import type { PetStatus } from '../../../contract/types.ts'
import { formHints } from './contract-hints.ts'
import { createPetsApi } from './pets-api.ts'

// The example page. With ?baseUrl= (or VITE_API_BASE_URL) it talks to that server; otherwise it starts the
// in-browser mock (MSW service worker) and talks to /v1 on its own origin. Same code either way.
const query = new URLSearchParams(location.search)
const baseUrl = query.get('baseUrl') ?? (import.meta.env.VITE_API_BASE_URL as string | undefined)
const $ = <T extends HTMLElement>(testId: string) => document.querySelector(`[data-testid="${testId}"]`) as T

const keyInput = $<HTMLInputElement>('api-key')
keyInput.value = query.get('apiKey') ?? ''
// Development only: the mock, its defaults and its key. Vite replaces import.meta.env.DEV with false in a
// production build, which drops this branch and the dynamic import with it: no chunk holds the mock
// (`animal-store-mock check-bundle dist` and the mockGuard plugin check it).
const dev = import.meta.env.DEV
  ? { ...(await import('animal-store-contract-kit/mocks')), ...(await import('./browser-mock.ts')) }
  : undefined
if (dev && keyInput.value === '') keyInput.value = dev.defaultApiKey
// "Simulate" sends a Prefer header (delay=MS or fault=KIND) on the next request only, then clears itself.
const simulate = $<HTMLSelectElement>('simulate')
const api = createPetsApi({
  baseUrl: baseUrl ?? '/v1',
  apiKey: () => keyInput.value.trim(),
  headers: (): Record<string, string> => {
    const prefer = simulate.value
    simulate.value = ''
    return prefer ? { prefer } : {}
  },
})
const hints = formHints()

if (baseUrl) {
  $('mode').textContent = `Server: ${baseUrl}`
} else if (dev) {
  const seed = Number(query.get('seed') ?? dev.defaultSeed)
  const pets = Number(query.get('pets') ?? dev.defaultPetCount)
  await dev.startMockApi(seed, pets)
  $('mode').textContent = `Mock: in the browser (MSW service worker), seed ${seed}, ${pets} pets`
} else {
  $('mode').textContent = 'No API: build with VITE_API_BASE_URL, or open the page with ?baseUrl=<url>'
}

for (const select of [$<HTMLSelectElement>('filter-status'), $<HTMLSelectElement>('add-status')]) {
  for (const status of hints.statuses) select.append(new Option(status, status))
}
const limitInput = $<HTMLInputElement>('filter-limit')
Object.assign(limitInput, {
  min: String(hints.limit.min),
  max: String(hints.limit.max),
  placeholder: String(hints.limit.default),
})
for (const field of hints.required) {
  const input = document.querySelector<HTMLInputElement>(`[data-testid="add-form"] [name="${field}"]`)
  if (input) input.required = true
}

const show = (testId: string, text: string | undefined) => {
  const element = $(testId)
  element.textContent = text ?? ''
  element.hidden = text === undefined
}
const describeError = (error: { code: string; message: string; status: number }) =>
  `${error.status} ${error.code}: ${error.message}`

// Answers no retry can fix (a 4xx: a bad key, a bad filter) are shown inline; failures of the server or
// the network (5xx, no answer, a body cut short) get the error screen with a Retry button.
const isFailure = (error: { status: number }) => error.status === 0 || error.status >= 500
let listing = 0

async function refresh() {
  const form = new FormData($<HTMLFormElement>('filter-form'))
  const status = String(form.get('status') ?? '') as PetStatus | ''
  const limit = String(form.get('limit') ?? '')
  // Only the latest list request may paint: an earlier, slower one must not overwrite it.
  const mine = ++listing
  show('list-loading', 'Loading pets…')
  $('pet-table').setAttribute('aria-busy', 'true')
  const listed = await api.listPets({
    ...(status ? { status } : {}),
    ...(limit ? { limit: Number(limit) } : {}),
  })
  if (mine !== listing) return
  show('list-loading', undefined)
  $('pet-table').removeAttribute('aria-busy')
  const rows = $('pet-rows')
  rows.replaceChildren()
  const failure = !listed.ok && isFailure(listed.error)
  $('list-failure').hidden = !failure
  $('pet-table').hidden = failure
  if (!listed.ok) {
    if (failure) {
      show('list-error', undefined)
      $('list-failure-message').textContent = describeError(listed.error)
      return
    }
    return show('list-error', describeError(listed.error))
  }
  show('list-error', undefined)
  for (const pet of listed.data) {
    const row = document.createElement('tr')
    row.dataset.testid = 'pet-row'
    for (const value of [pet.id, pet.name, pet.categoryId, pet.status ?? '']) {
      const cell = document.createElement('td')
      cell.textContent = String(value)
      row.append(cell)
    }
    rows.append(row)
  }
}

$('list-retry').addEventListener('click', () => void refresh())

$('filter-form').addEventListener('submit', (event) => {
  event.preventDefault()
  void refresh()
})

$('add-form').addEventListener('submit', async (event) => {
  event.preventDefault()
  const form = new FormData(event.target as HTMLFormElement)
  const status = String(form.get('status') ?? '')
  // The number input's raw text goes as a JSON number, so the server (not the browser) judges it.
  const categoryText = String(form.get('categoryId') ?? '').trim()
  const body = `{"name":${JSON.stringify(String(form.get('name') ?? ''))},"categoryId":${/^-?\d+(\.\d+)?$/.test(categoryText) ? categoryText : JSON.stringify(categoryText)}${status ? `,"status":${JSON.stringify(status)}` : ''}}`
  const created = await api.createPet(JSON.parse(body))
  if (!created.ok) {
    show('add-result', undefined)
    return show('add-error', describeError(created.error))
  }
  show('add-error', undefined)
  show('add-result', `Added ${created.data.name} as pet #${created.data.id}.`)
  await refresh()
})

$('get-form').addEventListener('submit', async (event) => {
  event.preventDefault()
  const found = await api.getPet(String(new FormData(event.target as HTMLFormElement).get('id') ?? ''))
  if (!found.ok) {
    show('get-result', undefined)
    show('get-deprecation', undefined)
    return show('get-error', describeError(found.error))
  }
  show('get-error', undefined)
  show('get-result', JSON.stringify(found.data.value, null, 2))
  const sunset = found.data.sunset
    ? ` It will be removed on ${found.data.sunset.toISOString().slice(0, 10)}.`
    : ''
  show(
    'get-deprecation',
    found.data.deprecated
      ? `This endpoint is deprecated; use the list with a status filter.${sunset}`
      : undefined,
  )
})

await refresh()
document.body.dataset.ready = 'true'
