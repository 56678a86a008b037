// Reads and parses contract/openapi.yaml: the one module that reads the YAML, for the generator.
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { contractPath } from '../contract/contract-path.ts'
import { asOpenApiDocument, type OpenApiDocument } from '../contract/openapi-document.ts'

export { contractPath }

/**
 * Reads and parses `contract/openapi.yaml`: the only module that reads the YAML. `npm run generate` turns
 * it into `openapi.gen.ts`, which every runtime (Node, browsers, the built package) loads instead.
 */
export function readContractDocument(path: string = contractPath): OpenApiDocument {
  return asOpenApiDocument(parse(readFileSync(path, 'utf8')), path)
}
