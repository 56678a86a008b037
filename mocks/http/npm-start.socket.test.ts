import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

// Exactly what the README tells a person to type, through npm itself, on a real socket.
it('serves http://127.0.0.1:4321/v1/pets to "Authorization: Bearer secret" after `npm start -- --port 4321 --api-key secret`', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  // detached: npm, its shell and the server form one process group, stopped together below.
  const npm = spawn('npm', ['start', '--', '--port', '4321', '--api-key', 'secret'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`npm start printed no address within 30 s:\n${output}`)),
        30_000,
      )
      npm.stdout.on('data', (chunk: Buffer) => {
        output += chunk
        if (output.includes('listening on http://127.0.0.1:4321/v1')) {
          clearTimeout(timer)
          resolve()
        }
      })
      npm.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)))
    })
    const served = await fetch('http://127.0.0.1:4321/v1/pets', {
      headers: { authorization: 'Bearer secret' },
    })
    expect(served.status).toBe(200)
    expect((await served.json()).length).toBe(20)
    const refused = await fetch('http://127.0.0.1:4321/v1/pets', {
      headers: { authorization: 'Bearer animal-store-mock-key' },
    })
    expect(refused.status).toBe(401)
  } finally {
    if (npm.pid) process.kill(-npm.pid, 'SIGTERM')
  }
})
