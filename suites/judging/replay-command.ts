// A request as a curl command a person can paste, the key read from $CONFORMANCE_API_KEY, never printed.
import type { Exchange } from './exchange.ts'

/** Where a replayed request goes, and the key it must not print. */
export interface ReplayTarget {
  baseUrl: string
  apiKey: string
  /** Prism's proxy, gone once the run ends: a request sent through it is replayed against the server. */
  prismUrl?: string
}

/**
 * The request as a curl command a person can paste into a shell (sh, bash, zsh) to see the answer again. The API key is
 * read from `$CONFORMANCE_API_KEY`, never written out; everything else is quoted byte for byte (`-g` and
 * `--path-as-is` keep curl from rewriting brackets and dot segments the suite sent on purpose).
 * @example replayCommand({ method: 'GET', url: 'http://h/v1/pets?limit=0', headers: {} }, target)
 * // curl -i -g --path-as-is 'http://h/v1/pets?limit=0'
 */
export function replayCommand(request: Exchange['request'], target: ReplayTarget): string {
  const quote = shellQuoter(target.apiKey)
  const url =
    target.prismUrl && request.url.startsWith(target.prismUrl)
      ? `${target.baseUrl}${request.url.slice(target.prismUrl.length)}`
      : request.url
  const body = request.body
  // A shell argument cannot carry a NUL byte: such a body goes through printf's octal escape instead.
  const piped = body?.includes('\0') === true
  const lines = [
    `curl -i -g --path-as-is${request.method === 'GET' ? '' : ` -X ${request.method}`} ${quote(url)}`,
    // curl drops a header given as `name:` with nothing after it; `name;` sends it empty.
    ...Object.entries(request.headers).map(
      ([name, value]) => `  -H ${quote(value.trim() === '' ? `${name};` : `${name}: ${value}`)}`,
    ),
    ...(body === undefined ? [] : piped ? ['  --data-binary @-'] : [`  --data-raw ${quote(body)}`]),
  ]
  const command = lines.join(' \\\n')
  if (!piped || body === undefined) return command
  const escaped = body.replaceAll('\\', '\\\\').replaceAll('%', '%%').replaceAll('\0', '\\000')
  return `printf ${quote(escaped)} |\n${command}`
}

/**
 * Single-quotes text for a POSIX shell, writing the API key, and the near-miss spellings of it the auth
 * checks send (other letter case, a character short, its first half), as expansions of
 * `$CONFORMANCE_API_KEY` (plain sh: bash 3.2, macOS's, has no case-changing expansions).
 */
function shellQuoter(apiKey: string): (text: string) => string {
  const key = '"$CONFORMANCE_API_KEY"'
  const swapped = [...apiKey].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')
  const half = Math.ceil(apiKey.length / 2)
  const forms: [string, string][] = [
    [apiKey, key],
    [apiKey.toUpperCase(), `"$(printf %s ${key} | tr a-z A-Z)"`],
    [apiKey.toLowerCase(), `"$(printf %s ${key} | tr A-Z a-z)"`],
    [swapped, `"$(printf %s ${key} | tr a-zA-Z A-Za-z)"`],
    [apiKey.slice(0, -1), `"\${CONFORMANCE_API_KEY%?}"`],
    [apiKey.slice(1), `"\${CONFORMANCE_API_KEY#?}"`],
    [apiKey.slice(0, half), `"$(printf %.${half}s ${key})"`],
  ]
  const secrets = forms.filter(
    ([form], index) => form.length >= 2 && forms.findIndex(([other]) => other === form) === index,
  )
  const literal = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`
  return (text) => {
    let parts: (string | { expansion: string })[] = [text]
    for (const [form, expansion] of secrets)
      parts = parts.flatMap((part) =>
        typeof part === 'string'
          ? part.split(form).flatMap((piece, index) => (index === 0 ? [piece] : [{ expansion }, piece]))
          : [part],
      )
    return (
      parts
        .filter((part) => part !== '')
        .map((part) => (typeof part === 'string' ? literal(part) : part.expansion))
        .join('') || "''"
    )
  }
}
