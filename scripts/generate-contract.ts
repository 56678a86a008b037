import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { contractSha256 } from '../contract/contract-path.ts'
import { readContractDocument } from '../contract/read-document.ts'

// Every runtime loads the contract as a module: the parsed YAML, nothing else, plus the YAML's hash so
// `npm start` can tell when the YAML changed since. `npm test` fails when they differ.
const target = fileURLToPath(new URL('../contract/openapi.gen.ts', import.meta.url))
const header = `// Generated from the OpenAPI YAML beside this file by \`npm run generate\`: do not edit.
import type { OpenApiDocument } from './openapi-document.ts'

/** SHA-256 of the YAML this was generated from. */
export const sourceSha256 = '${contractSha256()}'

export const openapiDocument: OpenApiDocument = `
writeFileSync(target, `${header}${JSON.stringify(readContractDocument(), null, 2)}\n`)
console.log(`Wrote ${target}`)
