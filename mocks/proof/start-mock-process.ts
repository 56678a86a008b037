// Runs `npm start`'s script as a child process for socket tests, resolving once it prints its address.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stopProcess } from '../stop-process.ts'

const startScript = fileURLToPath(new URL('../../scripts/start-mock.ts', import.meta.url))

export interface MockProcess {
  /** The API base URL the process printed, e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string
  origin: string
  /** The server's process id (to read its memory from /proc). */
  pid: number
  /** Everything the process printed so far. */
  output(): string
  /** Sends SIGTERM and resolves with the exit code once the process has exited. */
  stop(): Promise<number | null>
}

/**
 * Runs `scripts/start-mock.ts` (what `npm start` runs) as its own process, and resolves once it prints
 * the address it listens on. Port 0 by default: the server picks a free one and says which.
 * @example const mock = await startMockProcess(['--api-key', 'k']); await fetch(`${mock.baseUrl}/pets`)
 */
export function startMockProcess(args: string[] = [], timeoutMs = 30_000): Promise<MockProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', startScript, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`The mock did not print its address within ${timeoutMs} ms. It printed:\n${output}`))
    }, timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const baseUrl = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (!baseUrl) return
      clearTimeout(timer)
      resolve({
        baseUrl,
        origin: new URL(baseUrl).origin,
        pid: child.pid ?? 0,
        output: () => output,
        stop: () => stopProcess(child),
      })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`The mock exited (code ${code}) before listening. It printed:\n${output}`))
    })
  })
}
