import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { watchTreeMemory } from './process-tree-memory.ts'

// A process whose child starts a child of its own, which fills 64 MB and says so: the tree's memory is
// measured from outside, grandchild included. Each passes its standard streams on.
const grandchild = `const held = Buffer.alloc(64 * 1024 * 1024, 1); process.stdout.write('ready'); process.stdin.resume(); process.stdin.on('end', () => held.length)`
const starting = (script: string) =>
  `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(script)}], { stdio: 'inherit' })`

describe.runIf(process.platform === 'linux')('the memory of a process tree, sampled from outside', () => {
  it('sums the resident memory of a process and all its descendants', async () => {
    const root = spawn(process.execPath, ['-e', starting(starting(grandchild))], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    const watch = watchTreeMemory(root.pid)
    let said = ''
    for await (const chunk of root.stdout) {
      said += String(chunk)
      if (said.includes('ready')) break
    }
    const peak = watch.stop()
    root.stdin.end()
    await once(root, 'exit')
    expect(peak?.processes.length).toBe(3)
    expect(peak?.processes[0]?.pid).toBe(root.pid)
    expect(peak?.bytes).toBeGreaterThan(64 * 1024 * 1024)
    expect(peak?.bytes).toBe(peak?.processes.reduce((sum, process) => sum + process.rssBytes, 0))
  })

  it('measures nothing of a process that is not there', () => {
    expect(watchTreeMemory(undefined).stop()).toBeUndefined()
  })
})
