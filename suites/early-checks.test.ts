import { describe, expect, it } from 'vitest'
import type { CheckBlock } from './check-stages.ts'
import { startInOrder } from './early-checks.ts'
import type { CheckMeta } from './run/index.ts'

/** Checks that end when told to, recording when each started and how many ran at once. */
function pendingChecks(names: string[][]) {
  const started: string[] = []
  const ends = new Map<string, () => void>()
  let running = 0
  let most = 0
  const blocks: CheckBlock[] = names.map((checks, index) => ({
    name: `block ${index}`,
    checks: checks.map((name) => ({
      name,
      run: () => {
        started.push(name)
        running++
        most = Math.max(most, running)
        return new Promise<CheckMeta>((done, fail) =>
          ends.set(name, () => {
            running--
            if (name.startsWith('failing')) fail(new Error(`${name} failed`))
            else done({ result: { name } as CheckMeta['result'] })
          }),
        )
      },
    })),
  }))
  const end = async (name: string) => {
    ends.get(name)?.()
    // The next check starts once the ended one's outcome has been seen.
    await new Promise((settled) => setImmediate(settled))
  }
  return { blocks, started, end, most: () => most }
}

describe('checks begun before the suite file asks for them', () => {
  it('start in their blocks’ order, the next as one ends, never more at once than the width', async () => {
    const checks = pendingChecks([['a', 'b'], ['c'], ['d', 'e']])
    startInOrder(checks.blocks, 2)
    expect(checks.started).toEqual(['a', 'b'])
    await checks.end('b')
    expect(checks.started).toEqual(['a', 'b', 'c'])
    await checks.end('a')
    await checks.end('c')
    expect(checks.started).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(checks.most()).toBe(2)
  })

  it('give whoever runs them afterwards each check’s one outcome, without starting any again', async () => {
    const checks = pendingChecks([['a', 'failing b'], ['c']])
    const begun = startInOrder(checks.blocks, 2)
    expect(begun.map((block) => [block.name, block.checks.map((check) => check.name)])).toEqual([
      ['block 0', ['a', 'failing b']],
      ['block 1', ['c']],
    ])
    const [a, b] = begun[0]?.checks ?? []
    const asked = [a?.run(), b?.run()]
    await checks.end('a')
    await checks.end('failing b')
    await expect(asked[0]).resolves.toEqual({ result: { name: 'a' } })
    // A failure is the asker's to report, and it frees the place for the next check all the same.
    await expect(asked[1]).rejects.toThrow('failing b failed')
    expect(checks.started).toEqual(['a', 'failing b', 'c'])
    const c = begun[1]?.checks[0]?.run()
    await checks.end('c')
    await expect(c).resolves.toEqual({ result: { name: 'c' } })
    expect(checks.started).toEqual(['a', 'failing b', 'c'])
  })

  it('start a check asked for before its turn then, and only once when its turn comes', async () => {
    const checks = pendingChecks([['a', 'b', 'c']])
    const begun = startInOrder(checks.blocks, 1)
    const c = begun[0]?.checks[2]?.run()
    expect(checks.started).toEqual(['a', 'c'])
    await checks.end('c')
    await checks.end('a')
    await checks.end('b')
    await expect(c).resolves.toEqual({ result: { name: 'c' } })
    expect(checks.started).toEqual(['a', 'c', 'b'])
  })
})

describe('a run claimed in a thread', () => {
  const blocks = (name: string): CheckBlock[] => [{ name, checks: [] }]

  it('is the same run for every copy of the module vitest may load, whichever asks first', async () => {
    // vitest loads the suite file's own copy of a module outside node_modules: two module instances here.
    const copy = (name: string): Promise<typeof import('./early-checks.ts')> =>
      import(/* @vite-ignore */ `${new URL('./early-checks.ts', import.meta.url).pathname}?${name}`)
    const ahead = await copy('loaded-ahead')
    const suiteFile = await copy('suite-file')
    expect(ahead.claimRun).not.toBe(suiteFile.claimRun)
    const begun = ahead.claimRun('run 1', () => blocks('begun ahead'))
    let madeAgain = false
    const forSuite = suiteFile.claimRun('run 1', () => {
      madeAgain = true
      return blocks('made again')
    })
    expect(forSuite).toBe(begun)
    expect(madeAgain).toBe(false)
  })

  it('is not begun again once the suite file has its checks, and a run of another target gets its own', async () => {
    const { claimRun } = await import('./early-checks.ts')
    const forSuite = claimRun('run 2', () => blocks('the suite file’s'))
    expect(claimRun('run 2', () => blocks('begun late'))).toBe(forSuite)
    const other = claimRun('run 3', () => blocks('another run'))
    expect(other).not.toBe(forSuite)
    expect(other[0]?.name).toBe('another run')
  })
})

describe('the engine the thread loads ahead', () => {
  it('exports beginChecks under the name the thread calls it by', async () => {
    // prestarted-worker.ts's thread script calls `beginChecks` on the module it loaded: renamed, the checks
    // would silently wait for vitest again.
    const engine = await import('./suite-engine.ts')
    expect(Object.keys(engine).sort()).toEqual(['beginChecks', 'suiteChecks'])
  })
})
