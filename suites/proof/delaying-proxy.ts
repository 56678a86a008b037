// A reverse proxy that holds every request a fixed time before forwarding it: distant staging on 127.0.0.1.
import { createServer } from 'node:http'
import { closeNow, listenOnLoopback } from './listen-on-loopback.ts'
import { pipeUpstream } from './pipe-upstream.ts'

export interface DelayingProxy {
  origin: string
  /** Requests forwarded so far, and the most that were held or in flight at once. */
  counts: { forwarded: number; peakInFlight: number }
  close(): Promise<void>
}

/**
 * A reverse proxy that waits `delayMs` after a request arrives before forwarding it, as a server in another
 * data centre adds a round trip to every request: the suite's waits on one another show as wall time.
 * A function gives each request its own wait, to choose which of several in flight is answered first.
 * `onExchange` hears when each request arrived and when its answer was sent (ms since the proxy started).
 */
export async function startDelayingProxy(options: {
  upstream: string
  delayMs: number | ((request: { method: string; path: string }) => number)
  onExchange?: (exchange: { method: string; path: string; arrivedMs: number; answeredMs: number }) => void
}): Promise<DelayingProxy> {
  const upstream = new URL(options.upstream)
  const counts = { forwarded: 0, peakInFlight: 0 }
  const started = performance.now()
  let inFlight = 0
  const server = createServer((req, res) => {
    const arrivedMs = performance.now() - started
    inFlight++
    counts.peakInFlight = Math.max(counts.peakInFlight, inFlight)
    res.on('close', () => {
      inFlight--
      options.onExchange?.({
        method: req.method ?? '',
        path: req.url ?? '',
        arrivedMs,
        answeredMs: performance.now() - started,
      })
    })
    const { delayMs } = options
    const wait =
      typeof delayMs === 'number' ? delayMs : delayMs({ method: req.method ?? '', path: req.url ?? '' })
    setTimeout(() => {
      counts.forwarded++
      const target = { hostname: upstream.hostname, port: upstream.port, path: req.url, headers: req.headers }
      pipeUpstream(req, res, target, () => res.destroy())
    }, wait)
  })
  // Every answer is streamed as it comes: nothing here may add to the delay.
  server.keepAliveTimeout = 10_000
  return {
    origin: await listenOnLoopback(server),
    counts,
    close: () => closeNow(server),
  }
}
