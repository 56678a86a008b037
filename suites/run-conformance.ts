/// <reference types="vitest/config" />
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { request } from 'undici'
import { startVitest } from 'vitest/node'
import { type RunningPrism, startPrism } from '../mocks/prism/start-prism.ts'
import { type ConformanceReport, ConformanceReporter } from './conformance-reporter.ts'
import type { ConformanceTarget } from './target.ts'

export interface ConformanceOptions {
  /** The server's base URL, `/v1` included. */
  baseUrl: string
  apiKey: string
  /** Production mode: never creates pets. */
  readOnly?: boolean
  /** Where junit.xml, conformance.json and summary.md go (default `reports/`). */
  reportDir?: string
  /** Route all traffic through Prism's validating proxy; its violations become failures. */
  viaPrism?: boolean
  /** Where progress and the summary go (default: stdout). */
  print?: (line: string) => void
}

export interface ConformanceOutcome {
  /** 0: conforms; 1: at least one check failed; 2: unusable options or unreachable server. */
  exitCode: 0 | 1 | 2
  /** Why the run could not happen (exit code 2). */
  problem?: string
  report?: ConformanceReport
}

// The suite file sits beside this module: .ts in the repository, .js in the built package.
const suitesDir = fileURLToPath(new URL('.', import.meta.url))
const suiteFile = `animal-store.conformance${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`

/**
 * Runs the conformance suite (suites/animal-store.conformance.ts) through vitest's Node API against a
 * server, writing JUnit, JSON and Markdown reports.
 * @example const { exitCode } = await runConformance({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'k' })
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceOutcome> {
  const print = options.print ?? ((line: string) => console.log(line))
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  if (!/^https?:\/\/[^/]/.test(baseUrl)) {
    return {
      exitCode: 2,
      problem: `The base URL must be an http(s) URL including /v1, such as http://127.0.0.1:4010/v1; got "${options.baseUrl}".`,
    }
  }
  if (!options.apiKey)
    return { exitCode: 2, problem: 'No API key: pass --api-key or set CONFORMANCE_API_KEY.' }
  const unreachable = await probe(`${baseUrl}/pets`)
  if (unreachable) return { exitCode: 2, problem: unreachable }

  const reportDir = resolve(options.reportDir ?? 'reports')
  let prism: RunningPrism | undefined
  try {
    if (options.viaPrism) {
      print('Starting Prism’s validating proxy in front of the server...')
      prism = await startPrism({ mode: 'proxy', upstream: baseUrl })
    }
    const target: ConformanceTarget = {
      baseUrl,
      apiKey: options.apiKey,
      readOnly: options.readOnly ?? false,
      ...(prism ? { prismUrl: prism.url } : {}),
    }
    const reporter = new ConformanceReporter(target, reportDir, print)
    const vitest = await startVitest(
      'test',
      [],
      {
        root: suitesDir,
        config: false,
        watch: false,
        include: [suiteFile],
        // Installed as a package, the suite lives under node_modules, which vitest excludes by default.
        exclude: [],
        reporters: [
          reporter,
          ['junit', { outputFile: resolve(reportDir, 'junit.xml'), suiteName: 'Animal Store conformance' }],
        ],
        maxConcurrency: 8,
        testTimeout: 60_000,
      },
      { test: { provide: { conformanceTarget: target } } },
    )
    await vitest.close()
    const report = reporter.report
    if (!report) return { exitCode: 1, problem: 'The suite did not finish; see the output above.' }
    return { exitCode: report.totals.failed > 0 ? 1 : 0, report }
  } finally {
    await prism?.stop()
  }
}

/** Any HTTP answer means the server is there; only a failure to get one is a reason not to run. */
async function probe(url: string): Promise<string | undefined> {
  try {
    const response = await request(url, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000 })
    await response.body.dump()
    return undefined
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message
    return `Cannot reach ${url} (${reason}). Is the server running, and does --base-url include /v1?`
  }
}
