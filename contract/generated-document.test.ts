import { expect, it } from 'vitest'
import { contractSha256 } from './contract-path.ts'
import { openapiDocument, sourceSha256 } from './openapi.gen.ts'
import { readContractDocument } from './read-document.ts'

it('keeps the generated contract module identical to the YAML (run `npm run generate` if not)', () => {
  expect(openapiDocument).toEqual(readContractDocument())
  expect(sourceSha256).toBe(contractSha256())
})
