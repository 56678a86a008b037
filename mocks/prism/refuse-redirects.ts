// How Prism's proxy is kept from following a redirect: Node options that patch the node-fetch it forwards with.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * Node options for Prism's own process that make its proxy hand every redirect back as the answer instead
 * of following it, so that no request, nor the key and `--header` secrets it carries, reaches an origin
 * other than the upstream. Prism then validates the 3xx and passes it on like any other answer.
 *
 * Prism's forwarder (`@stoplight/prism-http/dist/forwarder/index.js`) calls node-fetch 2 with its default
 * `redirect: 'follow'`, and no flag of `prism proxy` reaches that call. node-fetch asks one static function,
 * `fetch.isRedirect(status)`, whether an answer is a redirect; answering `false` makes it return the 3xx as
 * it came (status, headers, body). The other modes would not do: `manual` rewrites `Location` into an
 * absolute URL resolved against the upstream (a node-fetch step of its own), and `error` replaces the
 * answer with Prism's 500. So the preload, run before Prism's code, sets that one function in the very
 * node-fetch module the forwarder resolves.
 *
 * Fails closed: when Prism's forwarder no longer loads node-fetch, or node-fetch has no `isRedirect`, Prism
 * is not started (a thrown error here, or Prism exiting at once), rather than started following redirects.
 * @example spawn(process.execPath, [...refuseRedirectsOptions(prismBin), prismBin, 'proxy', ...])
 */
export function refuseRedirectsOptions(prismBin: string): string[] {
  const nodeFetch = forwarderNodeFetch(prismBin)
  const path = JSON.stringify(nodeFetch)
  const preload = [
    "import { createRequire } from 'node:module'",
    `const fetch = createRequire(${path})(${path})`,
    "if (typeof fetch.isRedirect !== 'function')",
    `  throw new Error('Refusing to start Prism: node-fetch at ' + ${path} + ' has no isRedirect, so its proxy could not be kept from following redirects (which would send the key to another origin).')`,
    'fetch.isRedirect = () => false',
  ].join('\n')
  return ['--import', `data:text/javascript,${encodeURIComponent(preload)}`]
}

/** The node-fetch file Prism's forwarder loads, found as Node's `require` finds it from there. */
function forwarderNodeFetch(prismBin: string): string {
  const failed = (why: string) =>
    new Error(
      `Failed to start Prism's proxy: ${why}, so it could not be kept from following redirects (which would send the key and --header values to another origin). Install the Prism this kit is tested with: npm install --save-dev @stoplight/prism-cli@5.14.2`,
    )
  let forwarder: string
  try {
    forwarder = join(dirname(createRequire(prismBin).resolve('@stoplight/prism-http')), 'forwarder/index.js')
  } catch {
    throw failed('@stoplight/prism-http cannot be found from the Prism CLI')
  }
  let source: string
  try {
    source = readFileSync(forwarder, 'utf8')
  } catch {
    throw failed(`Prism's forwarder is not at ${forwarder}`)
  }
  if (!source.includes('require("node-fetch")'))
    throw failed('Prism’s forwarder no longer sends requests with node-fetch')
  return createRequire(forwarder).resolve('node-fetch')
}
