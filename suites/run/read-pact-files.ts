// Reads the --pact files: Pact files of synchronous HTTP interactions, checked before any request is sent.
import { readFileSync, statSync } from 'node:fs'
import { parseExactJson } from '../../contract/index.ts'
import type { PactInteraction } from '../../mocks/core/pact-document.ts'
import type { LoadedPact } from '../engine/index.ts'

// A recording holds at most 500 interactions of 256 KiB (mocks/core/pact-recorder.ts); room for others' too.
const maxFileBytes = 64 * 1024 * 1024
const maxInteractions = 2000

/** The files' interactions, or what is wrong with the first file that cannot be used. */
export function readPactFiles(paths: readonly string[]): { pacts: LoadedPact[] } | { problem: string } {
  const pacts: LoadedPact[] = []
  for (const path of paths) {
    const read = readPactFile(path)
    if ('problem' in read) return { problem: `--pact ${path}: ${read.problem}` }
    pacts.push(read.pact)
  }
  return { pacts }
}

function readPactFile(path: string): { pact: LoadedPact } | { problem: string } {
  let document: unknown
  try {
    if (statSync(path).size > maxFileBytes)
      return { problem: `larger than ${maxFileBytes / 1024 / 1024} MiB.` }
    document = parseExactJson(readFileSync(path, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { problem: code ? `cannot be read (${code}).` : 'is not JSON.' }
  }
  const { consumer, interactions } = (document ?? {}) as {
    consumer?: { name?: unknown }
    interactions?: unknown
  }
  if (typeof consumer?.name !== 'string' || !Array.isArray(interactions))
    return { problem: 'is not a Pact file (no consumer name, or no interactions).' }
  if (interactions.length > maxInteractions)
    return { problem: `holds more than ${maxInteractions} interactions.` }
  const kept: PactInteraction[] = []
  for (const [index, interaction] of interactions.entries()) {
    const wrong = problemOf(interaction)
    if (wrong) return { problem: `interaction ${index + 1} ${wrong}` }
    kept.push(interaction as PactInteraction)
  }
  return { pact: { file: path, consumer: consumer.name.slice(0, 64), interactions: kept } }
}

/** What keeps one interaction from being replayed, or nothing. */
function problemOf(value: unknown): string | undefined {
  const interaction = value as Partial<PactInteraction> | null
  if (typeof interaction !== 'object' || interaction === null) return 'is not an object.'
  if (interaction.type !== undefined && interaction.type !== 'Synchronous/HTTP')
    return `is a ${String(interaction.type).slice(0, 40)} interaction; only Synchronous/HTTP ones are replayed.`
  if (typeof interaction.description !== 'string') return 'has no description.'
  const { request, response } = interaction
  if (
    typeof request?.method !== 'string' ||
    typeof request.path !== 'string' ||
    !request.path.startsWith('/')
  )
    return 'has no request method and path.'
  if (typeof response?.status !== 'number') return 'has no response status.'
  return undefined
}
