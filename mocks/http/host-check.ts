// Which Host headers the HTTP mock answers: a guard against DNS rebinding, as Vite's allowedHosts is.
import { isIP } from 'node:net'

export interface HostCheckOptions {
  /** The address the server binds (`--host`): always allowed as a Host. */
  host: string
  /** More names to allow (`--allowed-host`); `.example.test` allows the name and all its subdomains. */
  allowedHosts?: readonly string[]
}

/**
 * Decides which Host headers the server answers, as Vite's `server.allowedHosts` does (the fix for
 * CVE-2025-24010). A page on evil.example whose DNS name is made to resolve to 127.0.0.1 (DNS rebinding)
 * reaches the mock with `Host: evil.example`; refusing unknown names keeps it out. IP literals cannot be
 * rebound, so they pass, as do `localhost` and `*.localhost` (RFC 6761 §6.3: always loopback).
 * @example createHostCheck({ host: '127.0.0.1' })('localhost:4010') // true
 */
export function createHostCheck(options: HostCheckOptions): (hostHeader: string | undefined) => boolean {
  const exact = new Set(['localhost', options.host.toLowerCase()])
  const suffixes = ['.localhost']
  for (const name of options.allowedHosts ?? []) {
    const lower = name.toLowerCase()
    if (lower.startsWith('.')) {
      suffixes.push(lower)
      exact.add(lower.slice(1))
    } else exact.add(lower)
  }
  // Answers for the few Host values a server sees, so the check costs one lookup per request.
  const known = new Map<string, boolean>()
  return (hostHeader) => {
    // HTTP/1.0 clients may send no Host (HTTP/1.1 without one is refused by node:http itself); no
    // browser does, so no rebinding page can hide behind it.
    if (hostHeader === undefined) return true
    let allowed = known.get(hostHeader)
    if (allowed === undefined) {
      const name = hostName(hostHeader)
      allowed = isIP(name) !== 0 || exact.has(name) || suffixes.some((suffix) => name.endsWith(suffix))
      if (known.size < 256) known.set(hostHeader, allowed)
    }
    return allowed
  }
}

/** The name in a Host value without its port or IPv6 brackets, lower-cased: `[::1]:4010` gives `::1`. */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase()
  if (lower.startsWith('[')) return lower.slice(1, lower.indexOf(']') === -1 ? undefined : lower.indexOf(']'))
  const colon = lower.lastIndexOf(':')
  const name = colon === -1 ? lower : lower.slice(0, colon)
  // A trailing dot names the same host (RFC 1034 §3.1).
  return name.endsWith('.') ? name.slice(0, -1) : name
}
