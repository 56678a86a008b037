import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { peakRssOf, peakRssOfRun } from './run-memory.ts'

const own = () => process.resourceUsage().maxRSS * 1024

describe.runIf(process.platform === 'linux')('the peak memory of a run’s processes', () => {
  it('adds the peak of the process watching the run while it is the run’s parent', () => {
    const parent = peakRssOf(process.ppid) as number
    expect(parent).toBeGreaterThan(0)
    const before = own()
    const peak = peakRssOfRun({ watcher: process.ppid })
    expect(peak).toBeGreaterThanOrEqual(before + parent)
    expect(peak).toBeLessThanOrEqual(own() + (peakRssOf(process.ppid) as number))
  })

  it('leaves out a watcher that is not the run’s parent (gone, its pid may be anyone’s)', () => {
    const before = own()
    const peak = peakRssOfRun({ watcher: 1 })
    expect(peak).toBeGreaterThanOrEqual(before)
    expect(peak).toBeLessThanOrEqual(own())
  })

  it('adds the peak of Prism’s process, by its pid, while it runs', async () => {
    // A stand-in for Prism: a process that holds 64 MB and says so.
    const prism = spawn(
      process.execPath,
      [
        '-e',
        `const held = Buffer.alloc(64 * 1024 * 1024, 1); process.stdout.write('ready'); setInterval(() => held.length, 1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    await once(prism.stdout, 'data')
    const before = own()
    const peak = peakRssOfRun({ prism: prism.pid })
    prism.kill()
    await once(prism, 'exit')
    expect(peak - before).toBeGreaterThan(64 * 1024 * 1024)
    expect(peakRssOf(prism.pid)).toBeUndefined()
  })
})
