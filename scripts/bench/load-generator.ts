// The bench's load: wrk pinned apart from the servers when installed, else autocannon, which skews ratios.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

/** What generates the load, and where it and the servers run. */
export interface LoadGenerator {
  name: 'wrk' | 'autocannon'
  /** The core wrk is pinned to, when pinned; the servers get `serverCore`. */
  loadCore?: number
  serverCore?: number
  /** One line for the report: what ran where, and what that means for the ratios. */
  describe: string
}

export interface LoadResult {
  requests: number
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  /** Non-2xx answers and socket errors. */
  failed: number
}

export interface LoadRequest {
  url: string
  headers: Record<string, string>
  connections: number
  seconds: number
  /** One create (this JSON body, POSTed to the URL's path) in every `every` requests; the rest GET. */
  creates?: { every: number; body: string }
}

/**
 * wrk when it is installed (a C load generator: it leaves the servers' CPU to the servers), with wrk and
 * the servers pinned to different cores by taskset when there are two or more; else autocannon, which
 * runs in this Node process and competes with the servers for CPU, pulling every ratio toward 1.
 */
export function detectLoadGenerator(wanted: 'auto' | 'wrk' | 'autocannon'): LoadGenerator {
  const hasWrk = wanted !== 'autocannon' && spawnSync('wrk', ['-v']).error === undefined
  if (wanted === 'wrk' && !hasWrk)
    throw new Error(
      '--load wrk: wrk is not installed. Install it (Debian: apt-get install wrk) or use --load auto.',
    )
  if (!hasWrk) {
    return {
      name: 'autocannon',
      describe:
        'autocannon (in this Node process; wrk not found): it takes CPU from the servers it measures, so every ratio is compressed toward 1. Install wrk for the real figures.',
    }
  }
  const cores = availableParallelism()
  const canPin = cores >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0
  if (!canPin) return { name: 'wrk', describe: 'wrk (not pinned: taskset or a second core is missing)' }
  return {
    name: 'wrk',
    loadCore: 0,
    serverCore: cores - 1,
    describe: `wrk -t1 pinned to core 0, every server pinned to core ${cores - 1} (taskset)`,
  }
}

/** The command that starts a server on the servers' core (taskset execs it: same pid). */
export function pinnedCommand(generator: LoadGenerator, command: string, args: string[]): [string, string[]] {
  return generator.serverCore === undefined
    ? [command, args]
    : ['taskset', ['-c', String(generator.serverCore), command, ...args]]
}

/** Runs one load and resolves with its figures. */
export async function runLoad(generator: LoadGenerator, load: LoadRequest): Promise<LoadResult> {
  return generator.name === 'wrk' ? runWrk(generator, load) : runAutocannon(load)
}

async function runAutocannon(load: LoadRequest): Promise<LoadResult> {
  const { pathname, search } = new URL(load.url)
  const requests = load.creates
    ? [
        {
          method: 'POST' as const,
          path: pathname,
          headers: { ...load.headers, 'content-type': 'application/json' },
          body: load.creates.body,
        },
        ...Array.from({ length: load.creates.every - 1 }, () => ({
          method: 'GET' as const,
          path: `${pathname}${search}`,
        })),
      ]
    : undefined
  const result = await autocannon({
    url: load.url,
    headers: load.headers,
    connections: load.connections,
    duration: load.seconds,
    ...(requests ? { requests } : {}),
  })
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / load.seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failed: result.non2xx + result.errors,
  }
}

function runWrk(generator: LoadGenerator, load: LoadRequest): Promise<LoadResult> {
  const directory = mkdtempSync(join(tmpdir(), 'animal-store-wrk-'))
  const args = ['-t1', `-c${load.connections}`, `-d${load.seconds}s`, '--latency']
  for (const [name, value] of Object.entries(load.headers)) args.push('-H', `${name}: ${value}`)
  if (load.creates) {
    const script = join(directory, 'creates.lua')
    writeFileSync(script, createsScript(load.headers, load.creates.every, load.creates.body))
    args.push('-s', script)
  }
  args.push(load.url)
  const [command, pinned] =
    generator.loadCore === undefined
      ? ['wrk', args]
      : ['taskset', ['-c', String(generator.loadCore), 'wrk', ...args]]
  return new Promise((resolve, reject) => {
    const child = spawn(command, pinned, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      rmSync(directory, { recursive: true, force: true })
      const requests = Number(/(\d+) requests in/.exec(output)?.[1])
      if (code !== 0 || !Number.isFinite(requests)) {
        reject(new Error(`wrk failed (exit ${code}):\n${output}`))
        return
      }
      const seconds = Number(/requests in ([\d.]+)(m?s)/.exec(output)?.[1] ?? load.seconds)
      const inMs = /requests in [\d.]+ms/.test(output)
      const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
      resolve({
        requests,
        requestsPerSecond: requests / (inMs ? seconds / 1000 : seconds),
        p50Ms: latencyMs(/^\s+50%\s+([\d.]+)(us|ms|s)\s*$/m.exec(output)),
        p99Ms: latencyMs(/^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(output)),
        failed:
          Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0) +
          (errors ? errors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0),
      })
    })
  })
}

function latencyMs(match: RegExpExecArray | null): number {
  if (!match) return Number.NaN
  const value = Number(match[1])
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value
}

// wrk.format replaces -H headers with the table it is given, so the script carries them itself.
function createsScript(headers: Record<string, string>, every: number, body: string): string {
  const entries = Object.entries({ ...headers, 'Content-Type': 'application/json' })
    .map(([name, value]) => `[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join(', ')
  return `-- One create in every ${every} requests; the others are the URL's GET.
local count = 0
local post = nil
local get = nil
request = function()
  if get == nil then
    get = wrk.format(nil, nil, nil, nil)
    post = wrk.format("POST", wrk.path:gsub("%?.*", ""), { ${entries} }, ${JSON.stringify(body)})
  end
  count = count + 1
  if count % ${every} == 1 then return post end
  return get
end
`
}
