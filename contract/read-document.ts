import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { asOpenApiDocument, type OpenApiDocument } from './openapi-document.ts'

/** Where the one source of truth lives, for tools that take a path (Prism, Redocly). */
export const contractPath = fileURLToPath(new URL('./openapi.yaml', import.meta.url))

/**
 * Reads and parses `contract/openapi.yaml`. The only place in the project that reads the YAML;
 * everything else takes the loaded contract from `contract/index.ts`.
 */
export function readContractDocument(path: string = contractPath): OpenApiDocument {
  return asOpenApiDocument(parse(readFileSync(path, 'utf8')), path)
}
