// What both clients share about an HTTP message: header and body caps, URL split, headers, TLS options.
import type { IncomingMessage } from 'node:http'
import { rootCertificates } from 'node:tls'
import type { NetworkOptions } from './network-options.ts'

// Node's own default, written down so that the report can name it: a header block past it is refused.
export const maxHeaderBytes = 16 * 1024

// A body of the byte cap in 64-byte pieces: no server that means to be read frames its body finer.
export const defaultMaxChunks = 65_536

// What a browser or curl --compressed asks for: servers that compress must be judged on what they send then.
export const acceptEncoding = 'gzip, deflate, br'

/** The TLS options of `--ca`, `--cert`/`--key` and `--insecure`, as both clients take them. */
export function tlsOptions(network: NetworkOptions | undefined) {
  return {
    // Added to the system roots, not instead of them: an internal CA beside public ones.
    ...(network?.ca ? { ca: [...rootCertificates, network.ca] } : {}),
    ...(network?.cert ? { cert: network.cert } : {}),
    ...(network?.key ? { key: network.key } : {}),
    ...(network?.passphrase ? { passphrase: network.passphrase } : {}),
    ...(network?.insecure ? { rejectUnauthorized: false } : {}),
  }
}

/**
 * The origin, parsed (`target`, shared: read it, do not change it), and the path exactly as written (no
 * dot-segment or percent-encoding normalisation).
 */
export function splitUrl(url: string): { target: URL; rawPath: string } {
  const afterScheme = url.indexOf('//') + 2
  const slash = url.indexOf('/', afterScheme)
  const target = originOf(url, slash === -1 ? url : url.slice(0, slash))
  return { target, rawPath: slash === -1 ? '/' : url.slice(slash) }
}

// A run sends hundreds of requests to one or two origins (the server's, Prism's): each is parsed once.
// Kept by what precedes the path, which holds everything an http(s) URL's origin is made of.
const origins = new Map<string, URL>()

function originOf(url: string, beforePath: string): URL {
  if (!/^https?:\/\//.test(url)) return new URL(new URL(url).origin)
  let target = origins.get(beforePath)
  if (!target) {
    target = new URL(new URL(url).origin)
    if (origins.size >= 16) origins.clear()
    origins.set(beforePath, target)
  }
  return target
}

/** A response's headers as one string each, repeated ones joined as RFC 9110 §5.3 allows. */
export function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : String(value ?? ''),
    ]),
  )
}
