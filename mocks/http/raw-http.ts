// For the HTTP mock's socket tests: raw TCP exchanges fetch cannot send, and a process's peak memory.
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'

/** One response as it came off the wire. */
export interface RawResponse {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  body: string
}

/**
 * Writes `text` as-is to a fresh TCP connection on 127.0.0.1 and resolves with every response read
 * until the server closes it (end the last request with `Connection: close`), or after `timeoutMs`.
 * For what fetch cannot send: pipelined requests, absolute-form targets, repeated or foreign headers.
 */
export function rawExchange(port: number, text: string, timeoutMs = 10_000): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`No end of the exchange within ${timeoutMs} ms; got:\n${Buffer.concat(chunks)}`))
    }, timeoutMs)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(parseResponses(Buffer.concat(chunks).toString('utf8')))
    })
  })
}

/** Splits HTTP/1.1 responses that carry Content-Length (all of the mock's do). */
function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = []
  let rest = text
  while (rest.startsWith('HTTP/1.')) {
    const headEnd = rest.indexOf('\r\n\r\n')
    if (headEnd === -1) break
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    const length = Number(headers['content-length'] ?? 0)
    const status = Number(statusLine.split(' ')[1])
    responses.push({ status, headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) })
    rest = rest.slice(headEnd + 4 + length)
  }
  return responses
}

/** The peak resident memory of a process so far (VmHWM), in bytes; Linux only. */
export function peakRssBytes(pid: number): number {
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  if (kb === undefined) throw new Error(`Failed to read VmHWM of process ${pid}: /proc is needed (Linux).`)
  return Number(kb) * 1024
}
