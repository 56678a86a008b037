// Spawns a server (our mock as `npm start` runs it, or another) and times it to its first 2xx answer.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stopProcess } from '../../mocks/stop-process.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The API key every benchmark's mock accepts. */
export const benchKey = 'bench-key'

export interface LaunchedServer {
  pid: number
  /** From spawn to the first 2xx answer to `probe`, in ms. */
  firstResponseMs: number
  /** Resident memory of the server process now, in MB (Linux /proc). */
  rssMb(): number
  stop(): Promise<void>
}

/**
 * Spawns a server process and measures the time until `probe` first answers 2xx, polling every 5 ms
 * (the port must be below the ephemeral range, so a poll can never connect to itself).
 */
export async function launchServer(
  command: string,
  args: string[],
  probe: { url: string; headers?: Record<string, string> },
  timeoutMs = 30_000,
): Promise<LaunchedServer> {
  const started = performance.now()
  const child = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null)
      throw new Error(`${args.join(' ')} exited early (${child.exitCode}):\n${stderr}`)
    try {
      const response = await fetch(probe.url, {
        headers: probe.headers ?? {},
        signal: AbortSignal.timeout(2000),
      })
      await response.body?.cancel()
      if (response.ok) {
        const firstResponseMs = performance.now() - started
        return {
          pid: child.pid ?? 0,
          firstResponseMs,
          rssMb: () => rssOf(child.pid ?? 0),
          stop: async () => void (await stopProcess(child)),
        }
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await stopProcess(child)
  throw new Error(
    `${command} ${args.join(' ')} did not answer ${probe.url} within ${timeoutMs} ms:\n${stderr}`,
  )
}

/**
 * The arguments that start our mock on `port` as `npm start` runs it (scripts/launch.mjs), without npm's
 * own start-up in front of it: what a user waits for.
 */
export function mockArgs(port: number): string[] {
  return [
    join(root, 'scripts/launch.mjs'),
    join(root, 'scripts/start-mock.ts'),
    '--port',
    String(port),
    '--api-key',
    benchKey,
  ]
}

/** Starts our mock on `port` (see mockArgs) and waits for its first answer to GET /v1/pets. */
export function launchMock(port: number): Promise<LaunchedServer> {
  return launchServer(process.execPath, mockArgs(port), {
    url: `http://127.0.0.1:${port}/v1/pets`,
    headers: { authorization: `Bearer ${benchKey}` },
  })
}

function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)
  return line ? Number(line[1]) / 1024 : Number.NaN
}
