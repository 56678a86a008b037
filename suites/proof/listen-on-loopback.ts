// Starts a test server on an ephemeral loopback port, so proofs run side by side without clashing, and stops it.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Starts `server` on an ephemeral port of 127.0.0.1 (never a fixed port: tests run side by side) and gives
 * the origin to reach it.
 * @example await listenOnLoopback(createServer(handler)) // 'http://127.0.0.1:41234'
 */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/**
 * Stops `server` now: its open connections, kept-alive ones included, are closed rather than waited for.
 * @example await closeNow(server)
 */
export function closeNow(server: Server): Promise<void> {
  return new Promise<void>((done) => {
    server.close(() => done())
    server.closeAllConnections()
  })
}
