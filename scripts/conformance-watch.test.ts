import { describe, expect, it } from 'vitest'
import { isWatchedRun, runEnvironment, watchedSeed } from './conformance-watch.ts'

describe('the environment the watched run starts with', () => {
  it('is this process’s, with the seed it chose', () => {
    const env = runEnvironment({ PATH: '/usr/bin' }, 42)
    expect(env.PATH).toBe('/usr/bin')
    expect(isWatchedRun(env)).toBe(true)
    expect(watchedSeed(env)).toBe(42)
  })

  it('fixes glibc’s mmap threshold at its initial 128 KiB, so freed bodies go back to the system', () => {
    expect(runEnvironment({}, 1).MALLOC_MMAP_THRESHOLD_).toBe('131072')
  })

  it('leaves malloc as the user set it', () => {
    expect(runEnvironment({ MALLOC_MMAP_THRESHOLD_: '65536' }, 1).MALLOC_MMAP_THRESHOLD_).toBe('65536')
    const tuned = runEnvironment({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=262144' }, 1)
    expect(tuned.MALLOC_MMAP_THRESHOLD_).toBeUndefined()
  })
})
