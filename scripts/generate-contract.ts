import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readContractDocument } from '../contract/read-document.ts'

// Browsers cannot read files, so they get the contract as a module: the parsed YAML, nothing else.
// `npm test` fails when this copy and the YAML differ (contract/generated-document.test.ts).
const target = fileURLToPath(new URL('../contract/openapi.gen.ts', import.meta.url))
const header = `// Generated from the OpenAPI YAML beside this file by \`npm run generate\`: do not edit.
// Browsers load this copy (see "imports" in package.json); Node reads the YAML itself.
import type { OpenApiDocument } from './openapi-document.ts'

export const openapiDocument: OpenApiDocument = `
writeFileSync(target, `${header}${JSON.stringify(readContractDocument(), null, 2)}\n`)
console.log(`Wrote ${target}`)
