import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generate } from 'selfsigned'
import { afterEach, describe, expect, it } from 'vitest'
import { createMockApi } from '../../mocks/create-mock-api.ts'
import { serveHttp } from '../../mocks/http/serve-http.ts'
import { runConformanceCommand } from '../proof/conformance-command.ts'
import { startForwardProxy } from '../proof/forward-proxy.ts'
import { readMockRequest } from '../proof/mock-request.ts'

// Staging as it is reached: through a forward proxy, over TLS with an internal CA or client certificates,
// behind a gateway that wants its own header. Real sockets on 127.0.0.1; certificates made for each run.
const key = 'staging-key'
const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

const run = (args: string[], env: Record<string, string> = {}) =>
  runConformanceCommand(['--timeout', '120', ...args], {
    env: {
      CONFORMANCE_API_KEY: key,
      HTTP_PROXY: '',
      http_proxy: '',
      HTTPS_PROXY: '',
      https_proxy: '',
      ...env,
    },
    timeoutMs: 240_000,
  })

/** Every file a run wrote, as one text: what must never carry a secret. */
function everyReport(reportDir: string): string {
  return ['conformance.json', 'summary.md', 'junit.xml', 'conformance.html']
    .map((file) => readFileSync(join(reportDir, file), 'utf8'))
    .join('\n')
}

async function mockOverHttp(allowedHosts: string[] = [], gateway?: [string, string]) {
  const api = createMockApi({ apiKeys: [key], pets: 5 })
  const server = await serveHttp(
    (request) =>
      gateway && request.headers[gateway[0]] !== gateway[1]
        ? { status: 403, headers: { 'content-type': 'text/html' }, body: '<h1>gateway: no key</h1>' }
        : api.handle(request),
    { port: 0, host: '127.0.0.1', allowedHosts },
  )
  stops.push(server.close)
  return server
}

describe('through a forward proxy', () => {
  it('reaches a host name only the proxy resolves, with --proxy and its credentials, and conforms', async () => {
    const server = await mockOverHttp(['staging.internal'])
    const proxy = await startForwardProxy({
      hosts: { 'staging.internal:80': `127.0.0.1:${server.port}` },
      credentials: 'proxy-user:proxy-pass-7d1f',
    })
    stops.push(proxy.close)
    const { code, output, reportDir } = await run([
      '--base-url',
      'http://staging.internal/v1',
      '--proxy',
      `http://proxy-user:proxy-pass-7d1f@${new URL(proxy.origin).host}`,
    ])
    expect(code, output).toBe(0)
    expect(proxy.seen.length).toBeGreaterThan(10)
    expect(output + everyReport(reportDir)).not.toContain('proxy-pass-7d1f')
  })

  it('honours HTTP_PROXY, and exits 2 when the proxy cannot reach the host', async () => {
    const proxy = await startForwardProxy()
    stops.push(proxy.close)
    const { code, output } = await run(['--base-url', 'http://nowhere.internal/v1'], {
      HTTP_PROXY: proxy.origin,
    })
    expect(code, output).toBe(2)
    expect(proxy.seen.some((target) => target.includes('nowhere.internal'))).toBe(true)
  })

  it('goes around the proxy for a host NO_PROXY names', async () => {
    const server = await mockOverHttp()
    const proxy = await startForwardProxy()
    stops.push(proxy.close)
    const { code, output } = await run(['--base-url', `${server.origin}/v1`], {
      http_proxy: proxy.origin,
      NO_PROXY: 'example.test,127.0.0.1',
    })
    expect(code, output).toBe(0)
    expect(proxy.seen).toEqual([])
  })
})

describe('over TLS', () => {
  async function certificates() {
    const ca = await generate([{ name: 'commonName', value: 'Conformance test CA' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    })
    const signing = {
      ca: { key: ca.private, cert: ca.cert },
      keyType: 'ec' as const,
      algorithm: 'sha256' as const,
    }
    const server = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      ...signing,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
      ],
    })
    const client = await generate([{ name: 'commonName', value: 'conformance suite' }], {
      ...signing,
      passphrase: 'client-key-pass-93be',
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true },
        { name: 'extKeyUsage', clientAuth: true },
      ],
    })
    const dir = mkdtempSync(join(tmpdir(), 'conformance-tls-'))
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text)
      return join(dir, name)
    }
    return {
      ca,
      server,
      files: {
        ca: file('ca.pem', ca.cert),
        cert: file('client.pem', client.cert),
        key: file('client-key.pem', client.private),
      },
    }
  }

  async function mockOverHttps(tls: { cert: string; key: string; ca?: string; requestCert?: boolean }) {
    const api = createMockApi({ apiKeys: [key], pets: 5 })
    const server = createHttpsServer(
      {
        cert: tls.cert,
        key: tls.key,
        ...(tls.ca ? { ca: tls.ca } : {}),
        requestCert: tls.requestCert ?? false,
        rejectUnauthorized: tls.requestCert ?? false,
      },
      async (req, res) => {
        const answer = api.handle(await readMockRequest(req))
        res.writeHead(answer.status, answer.headers).end(answer.body)
      },
    )
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    stops.push(
      () =>
        new Promise<void>((done) => {
          server.closeAllConnections()
          server.close(() => done())
        }),
    )
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  }

  it('trusts an internal CA given with --ca, and only then', async () => {
    const { server, files } = await certificates()
    const url = await mockOverHttps({ cert: server.cert, key: server.private })
    const without = await run(['--base-url', url])
    expect(without.code, without.output).toBe(2)
    expect(without.output).toMatch(/TLS failed/)
    expect(without.output).toMatch(/pass that CA with --ca FILE; --insecure skips the check/)
    expect(without.report?.reason?.kind).toBe('tls')
    const trusted = await run(['--base-url', url, '--ca', files.ca])
    expect(trusted.code, trusted.output).toBe(0)
  })

  it('says --insecure in every report and in the run’s output', async () => {
    const { server } = await certificates()
    const url = await mockOverHttps({ cert: server.cert, key: server.private })
    const { code, output, reportDir } = await run(['--base-url', url, '--insecure'])
    expect(code, output).toBe(0)
    expect(output).toMatch(/Warning: Insecure: --insecure/)
    for (const file of ['conformance.json', 'summary.md', 'conformance.html', 'junit.xml'])
      expect(readFileSync(join(reportDir, file), 'utf8'), file).toContain('--insecure')
  })

  it('presents a client certificate (mTLS) with --cert and --key, its passphrase from the environment', async () => {
    const { ca, server, files } = await certificates()
    const url = await mockOverHttps({
      cert: server.cert,
      key: server.private,
      ca: ca.cert,
      requestCert: true,
    })
    const refused = await run(['--base-url', url, '--ca', files.ca])
    expect(refused.code, refused.output).toBe(2)
    const { code, output, reportDir } = await run(
      [
        '--base-url',
        url,
        '--ca',
        files.ca,
        '--cert',
        files.cert,
        '--key',
        files.key,
        '--key-passphrase-env',
        'CLIENT_KEY_PASS',
      ],
      { CLIENT_KEY_PASS: 'client-key-pass-93be' },
    )
    expect(code, output).toBe(0)
    expect(output + everyReport(reportDir)).not.toContain('client-key-pass-93be')
  })
})

describe('extra headers', () => {
  it('sends --header on every request, keeping its value out of every output', async () => {
    const server = await mockOverHttp([], ['x-api-key', 'gateway-secret-5c2a'])
    const refused = await run(['--base-url', `${server.origin}/v1`])
    expect(refused.code, refused.output).toBe(2)
    const { code, output, reportDir } = await run([
      '--base-url',
      `${server.origin}/v1`,
      '--header',
      'X-Api-Key: gateway-secret-5c2a',
    ])
    expect(code, output).toBe(0)
    expect(output + everyReport(reportDir)).not.toContain('gateway-secret-5c2a')
  })

  it('refuses --header Authorization: the auth checks decide it', async () => {
    const { code, output } = await run([
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--header',
      'Authorization: Bearer x',
    ])
    expect(code).toBe(2)
    expect(output).toContain('--header cannot set Authorization')
  })
})
