// Starts Stoplight's Prism (mock or validating proxy) on the contract, found lazily: it is an optional peer.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { contractPath } from '../../contract/contract-path.ts'
import { findFreePort, waitUntilAnswering } from '../local-port.ts'
import { stopProcess } from '../stop-process.ts'
import { refuseRedirectsOptions } from './refuse-redirects.ts'

export interface PrismOptions {
  /** `mock` answers from the contract alone; `proxy` validates traffic to `upstream`. */
  mode: 'mock' | 'proxy'
  /** For `proxy`: the server to forward to, including its `/v1` prefix. */
  upstream?: string
  host?: string
  /** A fixed port; by default a free one below the ephemeral range. */
  port?: number
  /** `prism mock --dynamic`: bodies generated from the schemas instead of examples. */
  dynamic?: boolean
  /** `prism mock --seed`: makes dynamic bodies repeatable. */
  seed?: string
  /** `--errors`: turn violations into errors (proxy: responses rewritten to 500). Off by default. */
  errors?: boolean
  /** Prism's log level; `silent` doubles its throughput. */
  logLevel?: 'silent' | 'error' | 'info'
  /** Where Prism's own output goes; collected in memory by default. */
  onOutput?: (chunk: string) => void
  /** How long to wait for Prism to answer, in ms (it takes ~3 s here). */
  startTimeoutMs?: number
}

export interface RunningPrism {
  /** Where Prism listens. Prism ignores the path of `servers[].url`, so paths start at `/pets`, not `/v1/pets`. */
  url: string
  /** Everything Prism printed so far, for error messages. */
  output(): string
  /** Prism's process. */
  pid: number | undefined
  stop(): Promise<void>
}

/** The Prism version this kit is tested with (5.15+ needs Node 24). */
const prismVersion = '5.14.2'

/**
 * The Prism CLI's entry script, run with this Node. Prism is an optional peer dependency of the package
 * (about 90 MB that the mock never needs), so it is looked up only when something asks for Prism.
 * @throws an Error saying what to install when `@stoplight/prism-cli` is missing.
 */
function findPrismBin(): string {
  try {
    return join(
      dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')),
      'dist/index.js',
    )
  } catch {
    throw new Error(
      `Prism is not installed: --via-prism, the proxy and the Prism mock run Stoplight's Prism, an optional peer dependency. Install it beside this kit: npm install --save-dev @stoplight/prism-cli@${prismVersion}`,
    )
  }
}

/** The Prism CLI's entry script, for callers in this repository, where Prism is a devDependency. */
export const prismBin: string = (() => {
  try {
    return findPrismBin()
  } catch {
    return ''
  }
})()

/** The `prism` command-line arguments for these options (no behaviour of its own: what Prism is told). */
export function prismArguments(options: PrismOptions, port: number): string[] {
  const host = options.host ?? '127.0.0.1'
  const args =
    options.mode === 'mock'
      ? [
          'mock',
          contractPath,
          ...(options.dynamic ? ['--dynamic'] : []),
          ...(options.seed ? ['--seed', options.seed] : []),
        ]
      : ['proxy', contractPath, requireUpstream(options.upstream)]
  args.push('--host', host, '--port', String(port), '--errors', String(options.errors ?? false))
  if (options.logLevel) args.push('--verboseLevel', options.logLevel)
  return args
}

/**
 * Starts the real Prism binary on the contract and resolves once it answers HTTP.
 * @example const prism = await startPrism({ mode: 'mock' }); await fetch(`${prism.url}/pets`); await prism.stop()
 */
export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const bin = findPrismBin()
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? (await findFreePort(host))
  // A proxy never follows a redirect: the 3xx is the upstream's answer, to be judged (refuse-redirects.ts).
  const nodeOptions = options.mode === 'proxy' ? refuseRedirectsOptions(bin) : []
  const child = spawn(process.execPath, [...nodeOptions, bin, ...prismArguments(options, port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  })
  let output = ''
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
    if (output.length > 200_000) output = output.slice(-100_000)
    options.onOutput?.(chunk.toString())
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const url = `http://${host}:${port}`
  const running: RunningPrism = {
    url,
    output: () => output,
    pid: child.pid,
    stop: async () => void (await stopProcess(child)),
  }
  try {
    await waitUntilAnswering(url, options.startTimeoutMs ?? 30_000, () => child.exitCode === null)
  } catch (error) {
    await running.stop()
    throw new Error(
      `Failed to start Prism (${options.mode}) on ${url}: ${(error as Error).message}\n${output}`,
    )
  }
  return running
}

function requireUpstream(upstream: string | undefined): string {
  if (!upstream)
    throw new Error(
      'Failed to start Prism proxy: no upstream URL. Pass the server to validate, e.g. http://127.0.0.1:4010/v1.',
    )
  return upstream
}
