/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ConformanceTarget } from './engine/target.ts'
import { parseJson } from './judging/parse-json.ts'
import { excludedRules } from './judging/rule-selection.ts'
import { boundedRequest } from './network/bounded-request.ts'
import type { NetworkOptions } from './network/network-options.ts'
import { createOutput, redactionNote, writeReportFiles } from './output/output-boundary.ts'
import { Secrets } from './output/secrets.ts'
import { withBaseline } from './reporting/apply-baseline.ts'
import { type Baseline, parseBaseline, writeBaseline } from './reporting/baseline-file.ts'
import type { ConformanceReport } from './reporting/conformance-report.ts'
import { buildReport } from './reporting/conformance-report.ts'
import { toConsoleText, toJunitXml, toMarkdown } from './reporting/report-formats.ts'
import { toHtml } from './reporting/report-html.ts'
import { invokedCommand } from './run/invoked-command.ts'
import { ensureWritableDirectory, preflight } from './run/preflight.ts'
import { prestartedPool, prestartVitestWorker } from './run/prestarted-worker.ts'
import { progressLine } from './run/progress-line.ts'
import { ConformanceReporter } from './run/vitest-reporter.ts'

export interface ConformanceOptions {
  /** The server's base URL, `/v1` included. */
  baseUrl: string
  apiKey: string
  /** Production mode: never creates pets. */
  readOnly?: boolean
  /** Where junit.xml, conformance.json, summary.md and conformance.html go (default `reports/`). */
  reportDir?: string
  /** Route all traffic through Prism's validating proxy; its violations, checked against the response, count too. */
  viaPrism?: boolean
  /** The whole run's deadline in seconds (default 300): past it the run stops and exits 2. */
  timeoutSeconds?: number
  /** One request's deadline in seconds, headers and body included (default 10). */
  requestTimeoutSeconds?: number
  /** Response bodies are read up to this many bytes (default 4 MiB). */
  maxResponseBytes?: number
  /** How the names of created pets start (default `conformance`). */
  namePrefix?: string
  /** Seeds every generated sequence (default: random, printed in every report); the same seed replays them. */
  seed?: number
  /** Random sequences the stateful model runs (default 5). */
  maxExamples?: number
  /** `strict` (default): policy findings fail the run; `off`: they are warnings. */
  policy?: 'strict' | 'off'
  /** Judge only these rules, groups or kinds (`--checks`); see rule-selection.ts. */
  checks?: string[]
  /** Leave these rules, groups or kinds out (`--exclude-checks`): reported as excluded, never as passed. */
  excludeChecks?: string[]
  /** The progress line on stderr: default on a TTY outside CI. */
  progress?: boolean
  /** A baseline file of accepted findings (see baseline.ts): they are reported as known and do not fail the run. */
  baseline?: string
  /** Writes the run's findings as a baseline here, each with an empty reason for a person to fill in. */
  writeBaseline?: string
  /** Rate limit, proxy, TLS material and extra headers (see network-options.ts). */
  network?: NetworkOptions
  /** At most this many pets created (`--max-writes`): checks that would go past it are skipped. */
  maxWrites?: number
  /** Where progress and the summary go (default: stdout). Lines arrive redacted and made inert for a terminal. */
  print?: (line: string) => void
  /**
   * Secrets besides the API key and the base URL's credentials, which the run adds itself: proxy
   * credentials, headers marked secret. Every output is redacted of all of them.
   */
  secrets?: Secrets
}

export interface ConformanceOutcome {
  /** 0: conforms; 1: the server breaks the contract; 2: the run could not judge it (not the server's fault). */
  exitCode: 0 | 1 | 2
  /** Why the run could not happen or finish (exit code 2). */
  problem?: string
  report?: ConformanceReport
}

export const defaults = {
  timeoutSeconds: 300,
  requestTimeoutSeconds: 10,
  maxResponseBytes: 4 * 1024 * 1024,
  maxExamples: 5,
}

// The suite file sits beside this module: .ts in the repository, .js in the built package.
const suitesDir = fileURLToPath(new URL('.', import.meta.url))

/**
 * Where vitest finds the suite, and the module of everything it runs (suite-engine.ts), which the runner's
 * thread loads ahead. In the built package, the .js beside this module. From the repository's TypeScript,
 * cached bundles of them: vitest would otherwise transform and load some thirty source files one by one,
 * ~0.8 s of every run's start.
 */
async function suiteLocation(): Promise<{ root: string; file: string; engine: string }> {
  if (!import.meta.url.endsWith('.ts'))
    return {
      root: suitesDir,
      file: 'animal-store.conformance.js',
      engine: pathToFileURL(join(suitesDir, 'suite-engine.js')).href,
    }
  const { bundlePath, cachedBundle } = await import('./run/bundle-cache.mjs')
  const root = resolve(suitesDir, '..')
  const engine = join(suitesDir, 'suite-engine.ts')
  const bundle = await cachedBundle(join(suitesDir, 'animal-store.conformance.ts'), root, {
    bundlePackages: true,
    apart: [engine],
  })
  return {
    root: dirname(bundle),
    file: basename(bundle),
    engine: pathToFileURL(bundlePath(engine, root, { bundlePackages: true })).href,
  }
}

/**
 * Runs the conformance suite (suites/animal-store.conformance.ts) through vitest's Node API against a
 * server, after a pre-flight that tells a server's defects from a run that cannot judge it, and writes
 * JUnit, JSON, Markdown and HTML reports.
 * @example const { exitCode } = await runConformance({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'k' })
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceOutcome> {
  const secrets = (options.secrets ?? new Secrets()).addApiKey(options.apiKey).addBaseUrl(options.baseUrl)
  const output = options.print
    ? createOutput(secrets, {
        stdout: (text) => options.print?.(text.replace(/\n$/, '')),
        stderr: (text) => options.print?.(text.replace(/\n$/, '')),
      })
    : createOutput(secrets)
  const print = (line: string) => output.out(line)
  const problem = (text: string): ConformanceOutcome => ({ exitCode: 2, problem: secrets.redact(text) })
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  if (baseUrl === '')
    return problem(
      'No base URL: pass --base-url (with its version prefix, e.g. https://host/v1) or set CONFORMANCE_BASE_URL.',
    )
  if (!/^https?:\/\/[^/]/.test(baseUrl))
    return problem(
      `The base URL must be an http(s) URL including /v1, such as http://127.0.0.1:4010/v1; got "${options.baseUrl}".`,
    )
  if (!options.apiKey) return problem('No API key: set CONFORMANCE_API_KEY (or pass --api-key).')
  if (secrets.tooShort.length > 0)
    output.err(
      `Warning: a secret (${secrets.tooShort.join(', ')}) is shorter than 4 characters: it cannot be redacted from the output without destroying it, so it is written as it is.`,
    )
  const selection = excludedRules({
    ...(options.checks ? { checks: options.checks } : {}),
    ...(options.excludeChecks ? { excludeChecks: options.excludeChecks } : {}),
  })
  if (!selection.ok) return problem(`--checks / --exclude-checks: ${selection.problem}`)
  const baseline = options.baseline === undefined ? undefined : readBaselineFile(options.baseline)
  if (typeof baseline === 'string') return problem(baseline)
  const reportDir = resolve(options.reportDir ?? 'reports')
  const unwritable = ensureWritableDirectory(reportDir)
  if (unwritable) return problem(unwritable)

  const timeoutMs = (options.timeoutSeconds ?? defaults.timeoutSeconds) * 1000
  const runDeadline = Date.now() + timeoutMs
  const target: ConformanceTarget = {
    baseUrl,
    apiKey: options.apiKey,
    readOnly: options.readOnly ?? false,
    requestTimeoutMs: (options.requestTimeoutSeconds ?? defaults.requestTimeoutSeconds) * 1000,
    maxResponseBytes: options.maxResponseBytes ?? defaults.maxResponseBytes,
    runDeadline,
    namePrefix: options.namePrefix ?? 'conformance',
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 31),
    maxExamples: options.maxExamples ?? defaults.maxExamples,
    policy: options.policy ?? 'strict',
    excludedRules: selection.excluded,
    command: invokedCommand(),
    ...(options.network ? { network: options.network } : {}),
    ...(options.maxWrites === undefined ? {} : { maxWrites: options.maxWrites }),
  }
  // vitest and the suite's bundle load while the pre-flight waits for the server: loading them is CPU,
  // the pre-flight is a round trip. Loaded here, not at the top, so `--help` and a wrong argument do not
  // pay for vitest; a run the pre-flight stops exits without waiting for them.
  // The thread vitest will run the suite in starts now too, on the core that loading vitest leaves idle.
  const prestarted = prestartVitestWorker()
  const loading = Promise.all([
    import('vitest/node'),
    suiteLocation().then((suite) => {
      prestarted?.preload(suite.engine)
      return suite
    }),
  ])
  loading.catch(() => {})
  const insecure = options.network?.insecure
    ? [
        'Insecure: --insecure accepted any TLS certificate, so this run cannot tell the server from anyone in between. Do not gate a release on it.',
      ]
    : []
  for (const line of insecure) print(`Warning: ${line}`)
  const blocker = await preflight(baseUrl, target.apiKey, {
    requestTimeoutMs: target.requestTimeoutMs,
    maxResponseBytes: target.maxResponseBytes,
    runDeadline,
    ...(target.network ? { network: target.network } : {}),
  })
  if (blocker) {
    prestarted?.dispose()
    return problem(blocker)
  }

  let prism: { url: string; stop(): Promise<void> } | undefined
  // Prism's proxy re-serialises JSON through doubles: a server whose pet ids are beyond 2^53 would be
  // judged on Prism's rounding of every one of them. It is checked directly then, and the report says so.
  const prismRounds = options.viaPrism ? await servesUnsafeIds(baseUrl, target) : false
  const limitations = [
    ...insecure,
    ...(prismRounds
      ? [
          'Asked for --via-prism, but the server’s pet ids are beyond 2^53, which Prism’s proxy would round (it re-serialises JSON through doubles), so every request went straight to the server and Prism’s own checks were not applied.',
        ]
      : []),
  ]
  try {
    if (options.viaPrism && prismRounds)
      print('Not using Prism: the server’s pet ids are beyond 2^53, which Prism’s proxy would round.')
    if (options.viaPrism && !prismRounds) {
      print('Starting Prism’s validating proxy in front of the server...')
      // Loaded only here: Prism is an optional extra, not needed by a plain run.
      const { startPrism } = await import('../mocks/prism/start-prism.ts')
      prism = await startPrism({ mode: 'proxy', upstream: baseUrl })
      target.prismUrl = prism.url
    }
    print(
      `Checking ${baseUrl} against the Animal Store contract${target.readOnly ? ' (read-only)' : ''}${prism ? ', through Prism’s validating proxy' : ''}...`,
    )
    print(`Seed ${target.seed} (replay with --seed ${target.seed}).`)
    const facts = {
      target: {
        baseUrl,
        readOnly: target.readOnly,
        viaPrism: prism !== undefined,
        seed: target.seed,
        command: target.command,
      },
      limitations,
    }
    const reporter = new ConformanceReporter(facts, print, progressLine(options.progress, output.status))
    const startedAt = new Date()
    const render = (judged: ConformanceReport): RenderedReports => {
      const selected =
        selection.excluded.length > 0 ? { ...judged, excludedRules: selection.excluded } : judged
      return renderReports(
        redactReport(baseline ? withBaseline(selected, baseline, new Date()) : selected, secrets),
      )
    }
    // The reports are rendered as soon as the reporter has judged the run, while vitest stops its thread
    // (tens of ms in which this thread would only wait); they are written once vitest has ended.
    let early: { from: ConformanceReport; rendered: RenderedReports } | undefined
    const renderEarly = () => {
      const judged = reporter.report
      if (!judged || early?.from === judged) return
      try {
        early = { from: judged, rendered: render(judged) }
      } catch {
        // Rendered again below, where an error surfaces as the run's own.
      }
    }
    const [{ startVitest }, suite] = await loading
    const vitest = await startVitest(
      'test',
      [],
      {
        root: suite.root,
        config: false,
        watch: false,
        // vitest's results cache orders test files by their last duration: for one file it is only a read
        // at the start and a write at the end, into the suite's folder (inside the installed package).
        cache: false,
        include: [suite.file],
        // Installed as a package, the suite lives under node_modules, which vitest excludes by default.
        exclude: [],
        reporters: [reporter, { onTestRunEnd: () => void setImmediate(renderEarly) }],
        // One thread in this process: its memory is the run's, and it starts faster than a fork. It was
        // started ahead, while vitest loaded (prestarted-worker.ts).
        pool: prestarted ? prestartedPool(prestarted) : 'threads',
        // As many checks at once as the request pool has sockets (bounded-request.ts): measured ~0.05 × of
        // the speed target faster than 8, whose checks waited on each other's round trips.
        maxConcurrency: 16,
        sequence: { concurrent: true },
        // The run's own deadline governs; vitest's per-test timeout only backs it up.
        testTimeout: timeoutMs + 30_000,
        hookTimeout: timeoutMs + 30_000,
      },
      {
        test: { provide: { conformanceTarget: target } },
        // The suite loads no CSS: given inline, Vite does not search every folder up to / for a PostCSS
        // config (some ninety file checks, awaited one by one, at every start).
        css: { postcss: {} },
      },
      // Whatever vitest prints itself (an error of its own) goes through the same boundary.
      { stdout: output.stream('stdout'), stderr: output.stream('stderr') },
    )
    // A hard stop a little after the deadline, in case a check ignores it: the run ends, naming what was pending.
    const backstop = new Promise<'deadline'>((done) => {
      const timer = setTimeout(() => done('deadline'), runDeadline - Date.now() + 5_000)
      timer.unref()
    })
    const finished = await Promise.race([vitest.close().then(() => 'done' as const), backstop])
    const judged =
      finished === 'done' && reporter.report
        ? reporter.report
        : buildReport([], {
            ...facts,
            startedAt,
            finishedAt: new Date(),
            coverage: [],
            created: { count: 0, namePrefix: '' },
            pending:
              [...reporter.running].length > 0
                ? [...reporter.running]
                : ['the suite itself (it did not finish)'],
          })
    const { report, texts } = early?.from === judged ? early.rendered : render(judged)
    writeReportFiles(output, reportDir, texts)
    if (options.writeBaseline) {
      output.writeFile(
        'json',
        options.writeBaseline,
        writeBaseline(
          report.findings.map((finding) => finding.id),
          baseline,
        ),
      )
      print(
        `Baseline: wrote ${report.findings.length} findings to ${options.writeBaseline}; give each a reason before using it.`,
      )
    }
    print(texts.console)
    print(`Reports: ${join(reportDir, 'junit.xml')}, conformance.json, summary.md`)
    // Last, so that it is the line a person sees when the run ends: the page shows what the text above cannot.
    print(`HTML report: ${join(reportDir, 'conformance.html')}`)
    const throttling = throttlingProblem(report)
    if (throttling) return { exitCode: 2, problem: throttling, report }
    if (report.verdict === 'incomplete')
      return {
        exitCode: 2,
        problem:
          report.pending.length > 0
            ? `The run's deadline (${timeoutMs / 1000} s) passed with ${report.pending.length} checks pending; raise --timeout or check why the server is slow.`
            : 'The suite itself failed (see above); this is not the server’s fault. Please report it.',
        report,
      }
    return { exitCode: report.verdict === 'conforms' ? 0 : 1, report }
  } finally {
    prestarted?.dispose()
    await prism?.stop()
  }
}

/**
 * Whether the server's first page already holds pet ids beyond 2^53 (read exactly, they are bigints):
 * Prism would hand the suite rounded ids, and every read by id would miss. Other int64 fields are judged
 * through Prism with its rounding allowed for (prism-rounded.ts).
 */
async function servesUnsafeIds(baseUrl: string, target: ConformanceTarget): Promise<boolean> {
  const outcome = await boundedRequest(
    `${baseUrl}/pets?limit=100`,
    { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${target.apiKey}` } },
    {
      requestTimeoutMs: target.requestTimeoutMs,
      maxResponseBytes: target.maxResponseBytes,
      runDeadline: target.runDeadline,
      ...(target.network ? { network: target.network } : {}),
    },
  )
  const page = outcome.ok ? parseJson(outcome.response.body) : undefined
  return Array.isArray(page) && page.some((pet) => typeof (pet as { id?: unknown })?.id === 'bigint')
}

/** The baseline file, or a sentence saying why it cannot be used (the run exits 2 before any request). */
function readBaselineFile(path: string): Baseline | string {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return `Cannot read the baseline ${path} (${(error as NodeJS.ErrnoException).code}). Write one with --write-baseline ${path}, then give each entry a reason.`
  }
  const parsed = parseBaseline(text, path)
  return parsed.ok ? parsed.baseline : `The baseline cannot be used: ${parsed.problem}`
}

/**
 * A run that stayed throttled beyond the budget (request-pacing.ts) could not judge the server: exit 2,
 * with a rate to try that the server did accept.
 */
function throttlingProblem(report: ConformanceReport): string | undefined {
  const traffic = report.traffic
  if (!traffic || traffic.refused === 0) return undefined
  const sent = traffic.requests + traffic.retried
  const suggested = Math.max(1, Math.floor((traffic.pacedAt ?? traffic.effectiveRate) * 0.8))
  return `staging is throttling: ${traffic.throttled} of ${sent} requests refused; try --rate-limit ${suggested}/s (or raise the limit for the suite's client).`
}

/**
 * The report with every secret in it redacted, and a note saying where, once: every format is written from
 * this copy, so none has to know about secrets. The verdict was reached before, on what the server sent.
 */
function redactReport(report: ConformanceReport, secrets: Secrets): ConformanceReport {
  const paths: string[] = []
  const redacted = secrets.redactDeep(report, (path) => paths.push(path))
  const note = redactionNote(paths)
  return note ? { ...redacted, notes: [...redacted.notes, note] } : redacted
}

interface RenderedReports {
  report: ConformanceReport
  /** JSON, Markdown (also appended to $GITHUB_STEP_SUMMARY), JUnit and HTML, and the console's summary. */
  texts: { json: string; html: string; markdown: string; junit: string; console: string }
}

/** Every format, from the same (redacted) report. */
function renderReports(report: ConformanceReport): RenderedReports {
  return {
    report,
    texts: {
      json: `${JSON.stringify(report, null, 2)}\n`,
      html: toHtml(report),
      markdown: toMarkdown(report),
      junit: toJunitXml(report),
      console: toConsoleText(report),
    },
  }
}
