// Stops a child process, SIGTERM then SIGKILL, for everything that spawns a mock or Prism.
import type { ChildProcess } from 'node:child_process'

/**
 * Stops a child process: SIGTERM, then SIGKILL if it has not exited within `graceMs`. Resolves with its
 * exit code (null when a signal ended it) once it has exited.
 */
export function stopProcess(child: ChildProcess, graceMs = 5000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', (code) => {
      clearTimeout(force)
      resolve(code)
    })
    child.kill('SIGTERM')
  })
}
