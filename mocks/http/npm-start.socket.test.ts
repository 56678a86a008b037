import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// What the README tells a person to type, through npm itself, on a real socket: `npm start` with a port
// of 0 (the server picks a free one and prints it), then stopped the way CI scripts stop `npm start &`,
// by npm's own pid, never by its process group.
const root = fileURLToPath(new URL('../..', import.meta.url))

function startNpm(args: string[]): { npm: ChildProcess; address: Promise<string>; output(): string } {
  // detached: npm, its shell and the server form a process group of their own, which the cleanup below
  // can end whatever happens; the tests themselves signal npm's pid only.
  const npm = spawn('npm', ['start', '--', ...args], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  npm.stderr?.on('data', (chunk: Buffer) => {
    output += chunk
  })
  const address = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no address within 30 s:\n${output}`)),
      30_000,
    )
    npm.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        resolve(url)
      }
    })
    npm.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`npm start exited (${code}):\n${output}`))
    })
  })
  return { npm, address, output: () => output }
}

/** Kills whatever is left of npm's process group (nothing, when the test passed). */
function cleanUp(npm: ChildProcess) {
  try {
    if (npm.pid) process.kill(-npm.pid, 'SIGKILL')
  } catch {
    // ESRCH: the group is already gone, as it should be.
  }
}

/**
 * Resolves true once the port can be bound again, false if it still cannot after `ms`. Binding, not
 * connecting: a connect to a closed port in the ephemeral range can connect to itself and look open.
 */
async function portFreedWithin(url: string, ms: number): Promise<boolean> {
  const { hostname, port } = new URL(url)
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const bound = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once('error', () => resolve(false))
      server.listen(Number(port), hostname, () => server.close(() => resolve(true)))
    })
    if (bound) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

/** Resolves with npm's exit, or rejects after `ms` (npm waits for its script, so this proves the mock exited). */
function exitWithin(npm: ChildProcess, ms: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm did not exit within ${ms} ms`)), ms)
    npm.once('exit', (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  })
}

describe('npm start', () => {
  it('serves /v1/pets to "Authorization: Bearer secret" after `npm start -- --port 0 --api-key secret`', async () => {
    const { npm, address } = startNpm(['--port', '0', '--api-key', 'secret'])
    try {
      const baseUrl = await address
      const served = await fetch(`${baseUrl}/pets`, { headers: { authorization: 'Bearer secret' } })
      expect(served.status).toBe(200)
      expect((await served.json()).length).toBe(20)
      const refused = await fetch(`${baseUrl}/pets`, {
        headers: { authorization: 'Bearer animal-store-mock-key' },
      })
      expect(refused.status).toBe(401)
    } finally {
      cleanUp(npm)
    }
  })

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops, and frees its port, when npm's own pid gets ${signal}`, async () => {
      const { npm, address, output } = startNpm(['--port', '0'])
      try {
        const baseUrl = await address
        const exited = exitWithin(npm, 10_000)
        if (npm.pid) process.kill(npm.pid, signal)
        // The script stopped cleanly (exit 0), and npm with it.
        expect(await exited).toBe(0)
        expect(
          await portFreedWithin(baseUrl, 5_000),
          `the mock still listens on ${baseUrl}:\n${output()}`,
        ).toBe(true)
      } finally {
        cleanUp(npm)
      }
    })
  }

  it('stops, and frees its port, when npm itself is killed outright (SIGKILL reaches no child)', async () => {
    const { npm, address, output } = startNpm(['--port', '0'])
    try {
      const baseUrl = await address
      const exited = exitWithin(npm, 10_000)
      if (npm.pid) process.kill(npm.pid, 'SIGKILL')
      await exited
      expect(
        await portFreedWithin(baseUrl, 5_000),
        `the mock still listens on ${baseUrl}:\n${output()}`,
      ).toBe(true)
      expect(output()).toMatch(/The process that started this one \(pid \d+\) is gone: stopping/)
    } finally {
      cleanUp(npm)
    }
  })
})
