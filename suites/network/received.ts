// The Received response type, alone so both clients and the outcome types share it without an import cycle.
import type { DuplicateMember } from './json-body-scan.ts'

/** A response as the suite received it: header names in lower case, the body decoded to text. */
export interface Received {
  status: number
  headers: Record<string, string>
  body: string
  /**
   * The first member name an object of the body gives twice (`{"name":5,"name":"Rex"}`), found as the body
   * was read: the parsed value shows only the last one, which is not what every client reads.
   */
  duplicateMember?: DuplicateMember
  /** The body's length when only its start is kept (once judged, see response-body.ts). */
  bodyLength?: number
  /**
   * The connection it came on (connection-watch.ts): a response on one later found desynced may be another
   * request's. The suite's own bookkeeping, never shown in a report.
   */
  connection?: number
}
