// The secrets of one invocation of the conformance command, known before and after its options are read:
// the run and the process that watches it redact the same ones.
import { isPublicHeader, type NetworkOptions, networkSecrets, splitHeader } from '../suites/network/index.ts'
import { Secrets } from '../suites/output/index.ts'

/**
 * The secrets the raw arguments and environment hold, before any option is checked: a usage error may
 * quote any argument (a header's value passed to `--seed` by mistake), and the full set is only known once
 * the options are read.
 */
export function earlySecrets(argv: string[], env: NodeJS.ProcessEnv): Secrets {
  const given = (name: string) =>
    argv.flatMap((arg, at) =>
      arg === name ? [argv[at + 1] ?? ''] : arg.startsWith(`${name}=`) ? [arg.slice(name.length + 1)] : [],
    )
  const secrets = Secrets.forRun({
    apiKey: given('--api-key')[0] ?? env.CONFORMANCE_API_KEY ?? '',
    baseUrl: given('--base-url')[0] ?? env.CONFORMANCE_BASE_URL ?? '',
  })
  const headers = given('--header')
    .map(splitHeader)
    .filter((header) => header !== undefined)
  const proxy = given('--proxy')[0]
  for (const secret of networkSecrets({ ...(proxy ? { proxy } : {}), headers }, env))
    secrets.add(secret, 'secret header')
  return secrets
}

/**
 * Adds what the options read revealed: a key or base URL from the config file (through an environment
 * variable it names), proxy credentials, extra headers' values (and names: wherever the server echoes
 * them) and the key's passphrase.
 */
export function addOptionSecrets(
  secrets: Secrets,
  values: { 'api-key'?: string | undefined; 'base-url'?: string | undefined },
  network: NetworkOptions,
): Secrets {
  secrets.addApiKey(values['api-key'] ?? '')
  secrets.addBaseUrl(values['base-url'] ?? '')
  for (const secret of networkSecrets(network)) secrets.add(secret, 'secret header')
  for (const [name] of network.headers ?? []) if (!isPublicHeader(name)) secrets.addHeader(name)
  return secrets
}
