// The header block a request goes out with: the suite's Accept-Encoding, the request's own, less what it leaves out.
import { acceptEncoding } from './http-message.ts'

/**
 * The headers both clients send: Accept-Encoding as a browser asks, then the request's own, each replacing
 * one of the same name in any letter case (RFC 9110 §5.1: names are case-insensitive, so two spellings would
 * be one repeated field), less the names it leaves out (a client that sends no Accept-Encoding, as curl and
 * Java's HttpClient do).
 * @example outgoingHeaders({ 'Accept-Encoding': 'gzip' }) // { 'Accept-Encoding': 'gzip' }
 * @example outgoingHeaders({}, ['accept-encoding']) // {}
 */
export function outgoingHeaders(
  headers: Record<string, string>,
  leaveOut: readonly string[] = [],
): Record<string, string> {
  // By lower-case name: a later spelling takes the place of an earlier one (moved last, as it is written).
  const sent = new Map<string, [name: string, value: string]>()
  for (const [name, value] of Object.entries({ 'accept-encoding': acceptEncoding, ...headers })) {
    sent.delete(name.toLowerCase())
    sent.set(name.toLowerCase(), [name, value])
  }
  for (const name of leaveOut) sent.delete(name.toLowerCase())
  return Object.fromEntries(sent.values())
}
