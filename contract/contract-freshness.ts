// Warns when the YAML changed since `npm run generate`: its SHA-256 now against the one last generated from.
import { contractSha256 } from './contract-path.ts'
import { sourceSha256 } from './openapi.gen.ts'

/**
 * A warning when the YAML changed since `npm run generate` (the code would serve the older contract),
 * else undefined. Undefined too where the YAML is not there to compare.
 */
export function staleContractWarning(): string | undefined {
  let current: string
  try {
    current = contractSha256()
  } catch {
    return undefined
  }
  return current === sourceSha256
    ? undefined
    : 'contract/openapi.yaml changed since `npm run generate`: the mock serves the contract as last generated. Run `npm run generate`.'
}
