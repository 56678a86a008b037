// Serves a reference service over node:http on a loopback port, moving bytes only, in its transport style.

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { closeNow } from './listen-on-loopback.ts'
import type { ReferenceStyle, ServiceRequest, ServiceResponse } from './reference-service.ts'

/** A proof server listening on 127.0.0.1, on a port the OS chose. */
export interface StartedServer {
  /** With `/v1`, e.g. `http://127.0.0.1:43121/v1`. */
  baseUrl: string
  apiKey: string
  close(): Promise<void>
}

/** A server the proof can start: a reference server, or one with a single defect. */
export interface ProofServer {
  name: string
  start(): Promise<StartedServer>
}

// One byte past the service's 1 MiB limit is enough to know a body is too large; the rest is drained unread.
const keepBytes = 1024 * 1024 + 1

/**
 * Serves a handler over node:http on 127.0.0.1, port 0: the adapter only moves bytes, every decision is
 * the handler's. Honours the style's transport choices (`Connection: close`, chunked bodies).
 * @example const server = await serveReference(handle, style, 'key'); await server.close()
 */
export function serveReference(
  handle: (request: ServiceRequest) => Promise<ServiceResponse>,
  style: Pick<ReferenceStyle, 'connectionClose' | 'chunked' | 'compress'>,
  apiKey: string,
): Promise<StartedServer> {
  let served = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    let kept = 0
    req.on('data', (chunk: Buffer) => {
      if (kept < keepBytes) chunks.push(chunk.subarray(0, keepBytes - kept))
      kept += chunk.length
    })
    req.on('end', () => {
      const hasBody =
        req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined
      handle({
        method: req.method ?? 'GET',
        target: req.url ?? '/',
        headers: req.headers,
        ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
      })
        .catch((error: unknown) => {
          // Only a bug in the proof server gets here; it still answers in the contract's Error shape.
          const body = Buffer.from(JSON.stringify({ code: 'internal', message: String(error), status: 500 }))
          return { status: 500, headers: { 'content-type': 'application/json' }, body }
        })
        .then((response) => {
          const headers: Record<string, string> = { ...response.headers }
          if (style.connectionClose) headers.connection = 'close'
          const coding = style.compress ? pickEncoding(req.headers['accept-encoding'], served++) : undefined
          if (coding && response.body.length > 0) {
            response = { ...response, body: compress[coding](response.body) }
            headers['content-encoding'] = coding
          }
          // Whether or not this one was compressed, another request's could be (RFC 9110 §12.5.5).
          if (style.compress) headers.vary = 'Accept-Encoding'
          // A framing the response states itself (a defect's) is sent as stated.
          const framed = headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined
          if (!style.chunked && !framed) headers['content-length'] = String(response.body.length)
          res.writeHead(response.status, headers)
          if (style.chunked && !framed && response.body.length > 1) {
            // Two chunks, so a client that reads only the first chunk is caught out.
            const half = Math.floor(response.body.length / 2)
            res.write(response.body.subarray(0, half))
            res.end(response.body.subarray(half))
          } else res.end(response.body)
        })
    })
  })
  server.requestTimeout = 30_000
  server.headersTimeout = 10_000
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey,
        close: () => closeNow(server),
      })
    })
  })
}

const compress = { br: brotliCompressSync, gzip: gzipSync, deflate: deflateSync } as const
type Coding = keyof typeof compress

/**
 * The content coding for one response: the codings the request's Accept-Encoding allows (RFC 9110
 * §12.5.3: listed, or `*`, with a q above 0), taken in turn so a run meets all three; none if it allows none.
 * @example pickEncoding('gzip, br;q=0', 0) // 'gzip'
 */
function pickEncoding(header: string | string[] | undefined, turn: number): Coding | undefined {
  const weights = new Map<string, number>()
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase())
    const q = params.find((param) => param.startsWith('q='))
    if (name) weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0)
  }
  const allowed = (Object.keys(compress) as Coding[]).filter(
    (coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0,
  )
  return allowed[turn % allowed.length]
}
