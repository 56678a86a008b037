// Where openapi.yaml is on disk and its hash: Node-only, for tools that take a path and the staleness check.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Where the one source of truth lives, for tools that take a path (Prism, Redocly, the generator). */
export const contractPath = fileURLToPath(new URL('./openapi.yaml', import.meta.url))

/** SHA-256 of contract/openapi.yaml as it is on disk now (hashing costs far less than parsing). */
export function contractSha256(): string {
  return createHash('sha256').update(readFileSync(contractPath)).digest('hex')
}
