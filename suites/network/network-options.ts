// How the run reaches staging (rate limit, proxy, TLS, extra headers) from flags; which values are secret.
import { parseRate } from './request-pacing.ts'

/**
 * How the run reaches a server through staging's infrastructure: a rate limit, a proxy, TLS material, extra
 * headers. Plain data (it travels to the suite's worker with the target), read once per run.
 */
export interface NetworkOptions {
  /** Requests per second from the first request (`--rate-limit 20/s`); otherwise paced only once throttled. */
  rateLimit?: number
  /** `--proxy URL`: every request goes through this http proxy (CONNECT for https targets). */
  proxy?: string
  /** PEM certificates trusted in addition to the system roots (`--ca FILE`). */
  ca?: string
  /** PEM client certificate and key for mTLS (`--cert FILE --key FILE`). */
  cert?: string
  key?: string
  /** The key's passphrase (from the environment variable named by `--key-passphrase-env`). */
  passphrase?: string
  /** Accepts any certificate (`--insecure`): every report says so. */
  insecure?: boolean
  /** Sent on every request (`--header 'Name: value'`), names lower-cased, in the order given. */
  headers?: [string, string][]
}

// The headers whose values are not secrets: they say how to answer, not who asks. Every other extra header
// (x-api-key, a tenant id, a cookie) is treated as a credential in every output.
const publicHeaders = new Set([
  'accept-language',
  'user-agent',
  'x-request-id',
  'x-correlation-id',
  'cache-control',
])

// Headers the suite itself decides on every request, each for a reason a check depends on: Authorization is
// what the auth checks vary; the others shape the body and its framing that checks send and judge.
const suiteHeaders = new Set([
  'authorization',
  'accept',
  'accept-encoding',
  'content-type',
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
])

/** `Name: value` split at its first colon, the name lower-cased; undefined without a colon. */
export function splitHeader(text: string): [name: string, value: string] | undefined {
  const colon = text.indexOf(':')
  if (colon < 0) return undefined
  return [text.slice(0, colon).trim().toLowerCase(), text.slice(colon + 1).trim()]
}

/** `Name: value` as `--header` takes it, or why not. */
export function parseHeader(text: string): { header: [string, string] } | { problem: string } {
  const split = splitHeader(text)
  // The argument is not quoted back: it holds a header value, which is a secret (a token typed without
  // its colon is still a token).
  if (!split || text.startsWith(':'))
    return { problem: `--header takes 'Name: value'; got an argument without a colon.` }
  const [name, value] = split
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name))
    return { problem: `--header takes 'Name: value'; got a name that is not a header name.` }
  if (/[\r\n\0]/.test(value)) return { problem: `--header ${name}: a value cannot hold a line break or NUL.` }
  if (suiteHeaders.has(name))
    return {
      problem:
        name === 'authorization'
          ? '--header cannot set Authorization: the suite sends the API key itself (CONFORMANCE_API_KEY) and varies it in the auth checks.'
          : `--header cannot set ${name}: the suite decides it on every request.`,
    }
  return { header: [name, value] }
}

/**
 * Every secret the network layer knows, for the redactor: proxy credentials (as written and decoded, and
 * the Basic form the proxy receives), the values of extra headers not on the public list, the key's
 * passphrase. Empty strings never count.
 */
export function networkSecrets(
  options: NetworkOptions | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (!options) return []
  const secrets: string[] = []
  for (const proxy of [options.proxy, env.HTTP_PROXY, env.http_proxy, env.HTTPS_PROXY, env.https_proxy]) {
    if (!proxy) continue
    try {
      const url = new URL(proxy)
      const user = decodeURIComponent(url.username)
      const password = decodeURIComponent(url.password)
      secrets.push(url.username, url.password, user, password)
      if (user || password) secrets.push(Buffer.from(`${user}:${password}`).toString('base64'))
    } catch {
      secrets.push(proxy)
    }
  }
  for (const [name, value] of options.headers ?? []) if (!publicHeaders.has(name)) secrets.push(value)
  if (options.passphrase) secrets.push(options.passphrase)
  return [...new Set(secrets.filter((secret) => secret !== ''))]
}

/** The header values shown as they are; the rest are secrets (`networkSecrets`). */
export function isPublicHeader(name: string): boolean {
  return publicHeaders.has(name.toLowerCase())
}

/** Whether the run goes through a proxy: `--proxy`, or one of the proxy variables (either case). */
export function usesProxy(
  options: NetworkOptions | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return Boolean(options?.proxy || env.HTTP_PROXY || env.http_proxy || env.HTTPS_PROXY || env.https_proxy)
}

/** The command-line flags of the network layer, as parseArgs reads them. */
export interface NetworkFlags {
  'rate-limit'?: string
  proxy?: string
  ca?: string
  cert?: string
  key?: string
  'key-passphrase-env'?: string
  insecure?: boolean
  header?: string[]
}

/**
 * Network options from the command line: files read, the passphrase taken from the environment variable
 * named, every value checked. A problem is a usage error (exit 2), in words that say what to do.
 */
export function networkOptionsFrom(
  flags: NetworkFlags,
  env: NodeJS.ProcessEnv,
  readText: (file: string) => string,
): { options: NetworkOptions } | { problem: string } {
  const options: NetworkOptions = {}
  if (flags['rate-limit'] !== undefined) {
    const rate = parseRate(flags['rate-limit'])
    if (rate === undefined)
      return {
        problem: `--rate-limit takes requests per second or minute, like 20/s or 600/m; got "${flags['rate-limit']}".`,
      }
    options.rateLimit = rate
  }
  if (flags.proxy !== undefined) {
    let url: URL
    try {
      url = new URL(flags.proxy)
    } catch {
      return { problem: '--proxy takes a URL, like http://proxy.example:3128.' }
    }
    if (url.protocol !== 'http:') return { problem: `--proxy takes an http:// proxy; got ${url.protocol}//.` }
    options.proxy = flags.proxy
  }
  const read = (flag: 'ca' | 'cert' | 'key') => {
    const file = flags[flag]
    if (file === undefined) return undefined
    try {
      const text = readText(file)
      if (!text.includes('-----BEGIN ')) return { problem: `--${flag} ${file} is not a PEM file.` }
      return { text }
    } catch (error) {
      return {
        problem: `Cannot read --${flag} ${file} (${(error as { code?: string }).code ?? (error as Error).message}).`,
      }
    }
  }
  for (const flag of ['ca', 'cert', 'key'] as const) {
    const got = read(flag)
    if (got && 'problem' in got) return { problem: got.problem ?? '' }
    if (got) options[flag] = got.text
  }
  if ((options.cert === undefined) !== (options.key === undefined))
    return { problem: '--cert and --key go together: a client certificate needs its key.' }
  const passphraseVariable = flags['key-passphrase-env']
  if (passphraseVariable !== undefined) {
    const passphrase = env[passphraseVariable]
    if (passphrase === undefined)
      return { problem: `--key-passphrase-env names ${passphraseVariable}, which is not set.` }
    options.passphrase = passphrase
  }
  if (flags.insecure) options.insecure = true
  for (const text of flags.header ?? []) {
    const parsed = parseHeader(text)
    if ('problem' in parsed) return { problem: parsed.problem }
    options.headers = [...(options.headers ?? []), parsed.header]
  }
  return { options }
}
