// Pact files on disk: a recording written to `<dir>/<consumer>-<provider>.json` (merged, under a lock), and files read back for replay.
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { parseExactJson, stringifyExactJson } from '../contract/exact-json.ts'
import type { PactDocument, PactInteraction } from './core/pact-document.ts'
import type { PactRecorder } from './core/pact-recorder.ts'

// A lock older than this was left by a process that died while writing: it is taken over.
const staleLockMs = 30_000
const lockWaitMs = 10_000

/** Where `writePact` puts a consumer's file. */
function pactFilePath(dir: string, recorder: Pick<PactRecorder, 'consumer' | 'provider'>): string {
  return join(dir, `${recorder.consumer}-${recorder.provider}.json`)
}

/**
 * Writes the recording as a Pact file and returns its path. Test runners write from several workers (each
 * with its own mock) into one file per consumer: the file is merged, never overwritten, one interaction
 * per description, the first recorded kept. Delete the folder before a recording run to start afresh.
 * @throws when the mock was made without `record`, the folder cannot be written, or another writer holds
 * the lock for 10 s.
 * @example afterAll(() => writePact(api, 'pacts')) // pacts/web-app-animal-store.json
 */
export async function writePact(
  source: PactRecorder | { recorder?: PactRecorder },
  dir: string,
): Promise<string> {
  const recorder = 'pact' in source ? source : source.recorder
  if (!recorder)
    throw new Error(
      "This mock records nothing: create it with record: { consumer: 'web-app' } in its options.",
    )
  mkdirSync(dir, { recursive: true })
  const file = pactFilePath(dir, recorder)
  const release = await lock(`${file}.lock`)
  try {
    const merged = mergePacts(readPact(file), recorder.pact())
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, `${stringifyExactJson(merged, 2)}\n`)
    renameSync(temporary, file)
  } finally {
    release()
  }
  return file
}

/**
 * The interactions of both, those already written first: one per key (the request's shape), and each
 * description once (Pact tools tell interactions apart by it), a later one alike numbered.
 */
function mergePacts(written: PactDocument | undefined, recorded: PactDocument): PactDocument {
  if (!written) return recorded
  const keys = new Set(written.interactions.map((interaction) => interaction.key ?? interaction.description))
  const descriptions = new Set(written.interactions.map((interaction) => interaction.description))
  const added: PactInteraction[] = []
  for (const interaction of recorded.interactions) {
    if (keys.has(interaction.key ?? interaction.description)) continue
    let description = interaction.description
    for (let n = 2; descriptions.has(description); n++) description = `${interaction.description} (${n})`
    descriptions.add(description)
    added.push({ ...interaction, description })
  }
  return { ...recorded, interactions: [...written.interactions, ...added] }
}

function readPact(file: string): PactDocument | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  const parsed = parseExactJson(text) as Partial<PactDocument>
  if (!Array.isArray(parsed?.interactions))
    throw new Error(`${file} is not a Pact file: move it away or delete it, then record again.`)
  return parsed as PactDocument
}

async function lock(path: string): Promise<() => void> {
  const until = Date.now() + lockWaitMs
  for (;;) {
    try {
      closeSync(openSync(path, 'wx'))
      return () => rmSync(path, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (isStale(path)) rmSync(path, { force: true })
    else if (Date.now() > until)
      throw new Error(`Another writer holds ${path} for more than 10 s; if none runs, delete that file.`)
    else await new Promise((done) => setTimeout(done, 20))
  }
}

function isStale(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > staleLockMs
  } catch {
    return false
  }
}

/** A Pact file read for replay (--pact FILE): whose it is, and its interactions. */
export interface LoadedPact {
  /** The file as given, for reports. */
  file: string
  consumer: string
  interactions: PactInteraction[]
}

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
