// A free port below the ephemeral range, and a wait until a process started on it answers.
import { createServer } from 'node:net'

/**
 * Finds a free TCP port on 127.0.0.1 below the ephemeral range (32768-60999).
 * @note Polling a port inside the ephemeral range before its server listens can make the client's socket
 * connect to itself and then block the server's bind; below the range that cannot happen.
 */
export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 12000)
    if (await isFree(port, host)) return port
  }
  throw new Error(
    'Failed to find a free port between 20000 and 32000 after 50 tries. Free some ports and retry.',
  )
}

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, host, () => server.close(() => resolve(true)))
  })
}

/**
 * Polls `url` until anything answers over HTTP (any status), or throws after `timeoutMs`.
 * `isAlive` lets the caller stop early when the process it waits for has died.
 */
export async function waitUntilAnswering(
  url: string,
  timeoutMs: number,
  isAlive: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!isAlive())
      throw new Error(`Failed to reach ${url}: the process serving it exited before it answered.`)
    try {
      // A proxy's probe reaches its upstream: a redirect there is an answer, never a request elsewhere.
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(1000) })
      await response.body?.cancel()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  throw new Error(
    `Failed to reach ${url} within ${timeoutMs} ms. Make sure nothing else holds the port and retry.`,
  )
}
