// The last requests under /v1, never a header, in a columnar ring buffer so tests can assert on traffic.
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

const maxInterned = 1024

/** How many requests the journal keeps by default; the oldest goes first. */
export const defaultJournalSize = 1000

/**
 * The last requests under the API's base path, WireMock-style, so a test can assert "the app retried
 * once" or "it never sent the key twice". A ring buffer: bounded memory (about 100 bytes an entry plus
 * the path and query), O(1) per request. Control endpoints and CORS preflights are not recorded (MSW
 * never sees a preflight, so keeping them would make the journal differ between runtimes).
 * @note Kept in columns, not one object per request: objects that live for a thousand requests are
 * promoted out of V8's young generation, and that cost ~2.5 µs a request where columns cost ~0.1 µs.
 */
export class RequestJournal {
  readonly size: number
  private readonly methods: string[]
  private readonly paths: string[]
  private readonly queries: string[]
  private readonly statuses: Int16Array
  private readonly latencies: Int32Array
  private readonly faults: (FaultKind | null)[]
  private readonly authorized: Uint8Array
  private readonly times: Float64Array
  // Paths and queries seen before, kept once: a frontend repeats the same few, and keeping each
  // request's own copy would promote a thousand strings out of the young generation too.
  private readonly interned = new Map<string, string>()
  private next = 0
  private count = 0

  constructor(size: number = defaultJournalSize) {
    if (!Number.isSafeInteger(size) || size < 0)
      throw new Error(`The journal size must be a whole number of requests, 0 to turn it off; got ${size}.`)
    this.size = size
    this.methods = new Array(size).fill('')
    this.paths = new Array(size).fill('')
    this.queries = new Array(size).fill('')
    this.statuses = new Int16Array(size)
    this.latencies = new Int32Array(size)
    this.faults = new Array(size).fill(null)
    this.authorized = new Uint8Array(size)
    this.times = new Float64Array(size)
  }

  /** Keeps one request (the time is taken now); a journal of size 0 keeps nothing. */
  record(
    method: string,
    path: string,
    query: string,
    status: number | null,
    latencyMs: number,
    fault: FaultKind | null,
    authorized: boolean,
  ): void {
    if (this.size === 0) return
    const at = this.next
    this.methods[at] = method
    this.paths[at] = this.intern(path)
    this.queries[at] = this.intern(query)
    this.statuses[at] = status ?? -1
    this.latencies[at] = latencyMs
    this.faults[at] = fault
    this.authorized[at] = authorized ? 1 : 0
    this.times[at] = Date.now()
    this.next = at + 1 === this.size ? 0 : at + 1
    if (this.count < this.size) this.count++
  }

  /** The kept requests, oldest first. */
  list(): JournalEntry[] {
    const listed: JournalEntry[] = []
    const start = (this.next - this.count + this.size) % (this.size || 1)
    for (let index = 0; index < this.count; index++) {
      const at = (start + index) % this.size
      const status = this.statuses[at] ?? -1
      listed.push({
        time: new Date(this.times[at] ?? 0).toISOString(),
        method: this.methods[at] ?? '',
        path: this.paths[at] ?? '',
        query: this.queries[at] ?? '',
        status: status === -1 ? null : status,
        latencyMs: this.latencies[at] ?? 0,
        fault: this.faults[at] ?? null,
        authorized: this.authorized[at] === 1,
      })
    }
    return listed
  }

  private intern(text: string): string {
    const known = this.interned.get(text)
    if (known !== undefined) return known
    if (this.interned.size < maxInterned) this.interned.set(text, text)
    return text
  }

  clear(): void {
    this.interned.clear()
    // Drop the strings so a cleared journal holds no request's path.
    this.methods.fill('')
    this.paths.fill('')
    this.queries.fill('')
    this.faults.fill(null)
    this.next = 0
    this.count = 0
  }
}
