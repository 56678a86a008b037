import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { type CommandRun, runConformanceCommand } from './conformance-command.ts'
import { type ForwardProxy, startForwardProxy } from './forward-proxy.ts'
import { listenOnLoopback } from './listen-on-loopback.ts'

// Issue 40, item 3: no redirect carries a secret, on any path. A staging server that answers 3xx towards
// another origin must not make the run send the key or a `--header` secret there, and the run must judge
// the 3xx as staging's answer, not the other origin's. Real sockets on 127.0.0.1, the real Prism binary.
const key = 'redirect-key-4f9a1c7e'
const gatewaySecret = 'gateway-secret-8d3e5b'
const redirectStatuses = [301, 302, 303, 307, 308] as const

interface Received {
  method: string
  url: string
  authorization: string | undefined
  gateway: string | undefined
}

/** The other origin: records every request it gets and answers as a conforming server would. */
async function startEvilOrigin() {
  const received: Received[] = []
  const api = createMockApi({ apiKeys: [key], pets: 5 })
  const server = createServer((req, res) => {
    received.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      gateway: req.headers['x-gateway-key'] as string | undefined,
    })
    req.resume()
    const [path = '/', query = ''] = (req.url ?? '/').split('?')
    const answer = api.handle({
      method: req.method ?? 'GET',
      path,
      query,
      headers: { authorization: req.headers.authorization },
    })
    res.writeHead(answer.status, answer.headers).end(answer.body)
  })
  const origin = await listenOnLoopback(server)
  return { origin, received, close: () => new Promise<void>((done) => server.close(() => done())) }
}

/**
 * Staging: answers the pre-flight (`GET /v1/pets`) as our mock does, so the run starts, and every other
 * request with a redirect to the same path on `elsewhere`, cycling through the five redirect statuses.
 */
function startRedirectingStaging(elsewhere: string) {
  const api = createMockApi({ apiKeys: [key], pets: 5 })
  let answered = 0
  return serveHttp(
    (request) => {
      if (request.method === 'GET' && request.path === '/v1/pets' && request.query === '')
        return api.handle(request)
      const status = redirectStatuses[answered++ % redirectStatuses.length] ?? 302
      const query = request.query === '' ? '' : `?${request.query}`
      return {
        status,
        headers: { location: `${elsewhere}${request.path}${query}`, 'content-type': 'text/plain' },
        body: 'Moved',
      }
    },
    { port: 0, host: '127.0.0.1' },
  )
}

/** Every place a run writes to: its console and its four report files. */
function everyOutput(run: CommandRun): string {
  return [
    run.output,
    ...['conformance.json', 'summary.md', 'junit.xml', 'conformance.html'].map((file) =>
      readFileSync(join(run.reportDir, file), 'utf8'),
    ),
  ].join('\n')
}

type Path = 'direct' | 'proxied' | 'viaPrism'
const paths: Path[] = ['direct', 'proxied', 'viaPrism']

interface Scene {
  evil: Awaited<ReturnType<typeof startEvilOrigin>>
  staging: Awaited<ReturnType<typeof serveHttp>>
  run: CommandRun
}

describe('a staging server that redirects to another origin', () => {
  // One staging and one other origin per path, so that what the other origin receives names the path.
  const scenes: Partial<Record<Path, Scene>> = {}
  let proxy: ForwardProxy
  const noProxy = { HTTP_PROXY: '', http_proxy: '', HTTPS_PROXY: '', https_proxy: '' }

  const runOn = async (path: Path): Promise<Scene> => {
    const evil = await startEvilOrigin()
    const staging = await startRedirectingStaging(evil.origin)
    const run = await runConformanceCommand(
      [
        '--base-url',
        `${staging.origin}/v1`,
        '--header',
        `X-Gateway-Key: ${gatewaySecret}`,
        '--request-timeout',
        '5',
        '--timeout',
        '120',
        '--max-examples',
        '2',
        ...(path === 'viaPrism' ? ['--via-prism'] : []),
      ],
      {
        env: {
          CONFORMANCE_API_KEY: key,
          ...noProxy,
          ...(path === 'proxied' ? { HTTP_PROXY: proxy.origin } : {}),
        },
        timeoutMs: 200_000,
      },
    )
    return { evil, staging, run }
  }

  beforeAll(async () => {
    proxy = await startForwardProxy()
    ;[scenes.direct, scenes.proxied, scenes.viaPrism] = await Promise.all(paths.map(runOn))
  }, 300_000)
  afterAll(async () => {
    await Promise.all([
      proxy?.close(),
      ...Object.values(scenes).flatMap((scene) => [scene.evil.close(), scene.staging.close()]),
    ])
  })

  const scene = (path: Path): Scene => {
    const found = scenes[path]
    if (!found) throw new Error(`the ${path} run did not happen`)
    return found
  }

  it.each(paths)('sends the other origin no request at all (%s)', (path) => {
    expect(scene(path).evil.received).toEqual([])
  })

  it.each(paths)('judges each redirect as staging’s answer (%s): exit 1, the 3xx in the findings', (path) => {
    const { run, evil } = scene(path)
    expect(run.code, run.output).toBe(1)
    expect(run.report?.target.viaPrism).toBe(path === 'viaPrism')
    const examples = run.report?.findings.map((finding) => finding.example ?? '') ?? []
    // Through Prism, only the answers to requests sent to Prism (its URL has no /v1) show what it did with
    // a redirect: requests Prism cannot carry go straight to staging.
    const judged = path === 'viaPrism' ? examples.filter((text) => !/^> \S+ \S+\/v1\//.test(text)) : examples
    expect(judged.join('\n')).toMatch(/\n< 30[12378]\n/)
    // The Location header as staging sent it, byte for byte.
    expect(judged.join('\n')).toContain(`\n  location: ${evil.origin}/v1/pets`)
  })

  it('sends the proxied run through the forward proxy, to staging only', () => {
    const { staging, evil } = scene('proxied')
    expect(proxy.seen.some((target) => target.includes(new URL(staging.origin).host))).toBe(true)
    expect(proxy.seen.filter((target) => target.includes(new URL(evil.origin).host))).toEqual([])
  })

  it.each(paths)('writes neither the key nor the --header secret to any output (%s)', (path) => {
    const text = everyOutput(scene(path).run)
    expect(text).not.toContain(key)
    expect(text).not.toContain(gatewaySecret)
  })
})
