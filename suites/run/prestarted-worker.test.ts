import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { startVitest } from 'vitest/node'
import { type PrestartedWorker, prestartedPool, prestartVitestWorker } from './prestarted-worker.ts'

const scratch: string[] = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Runs one test file through vitest with the prestarted pool; the file writes the id of the thread it ran in. */
async function runIn(
  prestarted: PrestartedWorker,
): Promise<{ threadId: number; failed: number; printed: string; loadedAhead: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'prestarted-'))
  scratch.push(dir)
  const record = join(dir, 'thread-id')
  writeFileSync(
    join(dir, 'where.test.mjs'),
    `import { writeFileSync } from 'node:fs'
import { threadId } from 'node:worker_threads'
import { it } from 'vitest'
// What a module loaded ahead left in this thread before vitest ran this file.
const loadedAhead = String(globalThis.loadedAhead ?? 'nothing')
it('records its thread', () => writeFileSync(${JSON.stringify(record)}, JSON.stringify([threadId, loadedAhead])))
`,
  )
  // What the inner vitest prints is kept for the assertions' messages, not mixed into this run's output.
  let printed = ''
  const keep = new Writable({
    write(chunk, _encoding, done) {
      printed += String(chunk)
      done()
    },
  })
  const vitest = await startVitest(
    'test',
    [],
    {
      root: dir,
      config: false,
      watch: false,
      include: ['where.test.mjs'],
      reporters: [],
      pool: prestartedPool(prestarted),
    },
    {},
    { stdout: keep, stderr: keep },
  )
  await vitest.close()
  const [threadId, loadedAhead] = JSON.parse(readFileSync(record, 'utf8'))
  return { threadId, loadedAhead, failed: vitest.state.getCountOfFailedTests(), printed }
}

/** Records the id of each thread `take` handed over (a stopped thread's id is -1). */
function watched(prestarted: PrestartedWorker) {
  const taken: (number | undefined)[] = []
  return {
    taken,
    take: (...args: Parameters<PrestartedWorker['take']>) => {
      const thread = prestarted.take(...args)
      taken.push(thread?.threadId)
      return thread
    },
    preload: (url: string) => prestarted.preload(url),
    dispose: () => prestarted.dispose(),
  }
}

describe('vitest’s thread started ahead', () => {
  it('is the thread vitest runs the test file in, as vitest would have started it', async () => {
    const prestarted = prestartVitestWorker()
    expect(prestarted, 'vitest’s thread entry was not found where this vitest keeps it').toBeDefined()
    const spy = watched(prestarted as PrestartedWorker)
    const { threadId, failed, printed } = await runIn(spy)
    expect(failed, printed).toBe(0)
    // A guess that no longer matches what vitest passes its thread would make vitest start its own: the
    // run still works, but its start is slow again. This says so.
    expect(spy.taken).toHaveLength(1)
    expect(spy.taken[0]).toBe(threadId)
  })

  it('loads the module it is given ahead, in the thread vitest then runs the test file in', async () => {
    const prestarted = prestartVitestWorker() as PrestartedWorker
    const dir = mkdtempSync(join(tmpdir(), 'preload-'))
    scratch.push(dir)
    const module = join(dir, 'ahead.mjs')
    writeFileSync(
      module,
      [
        "import { threadId } from 'node:worker_threads'",
        "globalThis.loadedAhead = 'in thread ' + threadId",
        '',
      ].join('\n'),
    )
    prestarted.preload(pathToFileURL(module).href)
    const { threadId, loadedAhead, failed, printed } = await runIn(prestarted)
    expect(failed, printed).toBe(0)
    expect(loadedAhead).toBe(`in thread ${threadId}`)
  })

  it('is stopped, and vitest starts its own thread, when vitest would start it otherwise', async () => {
    const prestarted = prestartVitestWorker() as PrestartedWorker
    const offered: Worker[] = []
    // Another environment than the one the thread was started with.
    const { threadId, failed, printed } = await runIn({
      take: (entrypoint, env, execArgv) => {
        const thread = prestarted.take(entrypoint, { ...env, ANOTHER_VARIABLE: '1' }, execArgv)
        if (thread) offered.push(thread)
        return thread
      },
      preload: (url) => prestarted.preload(url),
      dispose: () => prestarted.dispose(),
    })
    expect(failed, printed).toBe(0)
    expect(offered).toEqual([])
    expect(threadId).toBeGreaterThan(0)
  })

  it('gives its thread to no one once disposed of', () => {
    const prestarted = prestartVitestWorker() as PrestartedWorker
    prestarted.dispose()
    expect(prestarted.take('', {}, [])).toBeUndefined()
  })
})
