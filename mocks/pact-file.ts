// Writes a recording to `<dir>/<consumer>-<provider>.json`, merged with what other workers wrote there, under a lock.
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
