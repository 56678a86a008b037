import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { startVitest } from 'vitest/node'
import {
  type PrestartedWorker,
  prestartedPool,
  prestartVitestWorker,
  provenVite,
  provenVitest,
} from './prestarted-worker.ts'

const require = createRequire(import.meta.url)
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

/** A module to load ahead (its URL), holding `code`, which may use the thread's `threadId`. */
function moduleAhead(code: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ahead-'))
  scratch.push(dir)
  const module = join(dir, 'ahead.mjs')
  writeFileSync(module, `import { threadId } from 'node:worker_threads'\n${code}\n`)
  return pathToFileURL(module).href
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
    begin: (target: unknown) => prestarted.begin(target),
    beginsEarly: prestarted.beginsEarly,
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
    prestarted.preload(moduleAhead("globalThis.loadedAhead = 'in thread ' + threadId"))
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
      begin: (target) => prestarted.begin(target),
      beginsEarly: prestarted.beginsEarly,
      dispose: () => prestarted.dispose(),
    })
    expect(failed, printed).toBe(0)
    expect(offered).toEqual([])
    expect(threadId).toBeGreaterThan(0)
  })

  it('begins the run in the module loaded ahead, with the target it is given, before vitest runs the file', async () => {
    const prestarted = prestartVitestWorker() as PrestartedWorker
    prestarted.preload(
      moduleAhead(
        "export function beginChecks(target) { globalThis.loadedAhead = 'begun for ' + target.baseUrl + ' in thread ' + threadId }",
      ),
    )
    prestarted.begin({ baseUrl: 'http://127.0.0.1:9/v1' })
    const { threadId, loadedAhead, failed, printed } = await runIn(prestarted)
    expect(failed, printed).toBe(0)
    expect(loadedAhead).toBe(`begun for http://127.0.0.1:9/v1 in thread ${threadId}`)
  })

  it('begins only under the vitest minor and Vite major its start was proven on, the ones installed here', () => {
    const prestarted = prestartVitestWorker() as PrestartedWorker
    prestarted.dispose()
    const version = (manifest: string) => JSON.parse(readFileSync(manifest, 'utf8')).version as string
    const vitest = version(require.resolve('vitest/package.json'))
    const vite = version(createRequire(require.resolve('vitest/package.json')).resolve('vite/package.json'))
    // A new vitest minor or Vite major fails this: prove the thread is still started as vitest would
    // (the tests above), then move provenVitest or provenVite. (Vite 8 is proven by the package proof.)
    expect(vitest.startsWith(`${provenVitest}.`), `vitest ${vitest}`).toBe(true)
    expect(provenVite).toContain(vite.split('.')[0])
    expect(prestarted.beginsEarly).toBe(true)
  })

  it('once the run began in it, fails a second thread vitest asks for rather than send the checks again', () => {
    const prestarted = prestartVitestWorker() as PrestartedWorker
    prestarted.begin({ baseUrl: 'http://127.0.0.1:9/v1' })
    const taken = (() => {
      try {
        return prestarted.take('', {}, [])
      } catch {
        return undefined
      }
    })()
    expect(taken).toBeUndefined()
    expect(() => prestarted.take('', {}, [])).toThrow(/a second thread for the suite/)
  })

  it('once the run began in it, fails the run rather than let vitest start another thread and send it again', () => {
    const prestarted = prestartVitestWorker() as PrestartedWorker
    prestarted.begin({ baseUrl: 'http://127.0.0.1:9/v1' })
    // Another environment than the one the thread was started with: without the run begun, vitest would
    // start its own thread (the test above).
    expect(() => prestarted.take('', { ANOTHER_VARIABLE: '1' }, [])).toThrow(
      /starts the suite's thread otherwise than this kit expects of vitest 4\.1.*run with vitest 4\.1, or report it/,
    )
  })

  it('gives its thread to no one once disposed of', () => {
    const prestarted = prestartVitestWorker() as PrestartedWorker
    prestarted.dispose()
    expect(prestarted.take('', {}, [])).toBeUndefined()
  })
})
