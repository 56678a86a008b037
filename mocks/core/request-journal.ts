import type { FaultKind } from './conditions.ts'

/** One request as the journal keeps it: never a header, so never the key. */
export interface JournalEntry {
  /** When the mock received it, as an ISO 8601 date. */
  time: string
  method: string
  /** The path as received, e.g. `/v1/pets/12`. */
  path: string
  /** The query string without `?`, e.g. `limit=5`. */
  query: string
  /** The status sent, or null when no answer was sent (a `reset` or `timeout` fault). */
  status: number | null
  /** The delay the mock added, in ms (0 without latency). */
  latencyMs: number
  /** The injected fault, or null. */
  fault: FaultKind | null
  /** Whether the request carried an accepted API key. */
  authorized: boolean
}

/** How many requests the journal keeps by default; the oldest goes first. */
export const defaultJournalSize = 1000

/**
 * The last requests under the API's base path, WireMock-style, so a test can assert "the app retried
 * once" or "it never sent the key twice". A ring buffer: bounded memory (about 200 bytes an entry), O(1)
 * per request. Control endpoints and CORS preflights are not recorded (MSW never sees a preflight, so
 * keeping them would make the journal differ between runtimes).
 */
export class RequestJournal {
  private readonly entries: (RawEntry | undefined)[]
  private next = 0
  private count = 0

  readonly size: number

  constructor(size: number = defaultJournalSize) {
    if (!Number.isSafeInteger(size) || size < 0)
      throw new Error(`The journal size must be a whole number of requests, 0 to turn it off; got ${size}.`)
    this.size = size
    this.entries = new Array(size)
  }

  /** Keeps one request (the time is taken now); a journal of size 0 keeps nothing. */
  record(entry: Omit<JournalEntry, 'time'>): void {
    if (this.size === 0) return
    this.entries[this.next] = { ...entry, at: Date.now() }
    this.next = (this.next + 1) % this.size
    if (this.count < this.size) this.count++
  }

  /** The kept requests, oldest first. */
  list(): JournalEntry[] {
    const listed: JournalEntry[] = []
    const start = (this.next - this.count + this.size) % (this.size || 1)
    for (let index = 0; index < this.count; index++) {
      const entry = this.entries[(start + index) % this.size]
      if (!entry) continue
      const { at, ...rest } = entry
      listed.push({ time: new Date(at).toISOString(), ...rest })
    }
    return listed
  }

  clear(): void {
    this.entries.fill(undefined)
    this.next = 0
    this.count = 0
  }
}

type RawEntry = Omit<JournalEntry, 'time'> & { at: number }
