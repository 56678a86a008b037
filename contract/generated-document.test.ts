import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { readContractDocument } from '../scripts/read-document.ts'
import { contractSha256 } from './contract-path.ts'
import { openapiDocument, sourceSha256 } from './openapi.gen.ts'
import { validatorsModule } from './validators-module.ts'

it('keeps the generated contract module identical to the YAML (run `npm run generate` if not)', () => {
  expect(openapiDocument).toEqual(readContractDocument())
  expect(sourceSha256).toBe(contractSha256())
})

it('keeps the precompiled validators identical to what Ajv compiles from the YAML now (run `npm run generate` if not)', () => {
  const committed = readFileSync(new URL('./validators.gen.ts', import.meta.url), 'utf8')
  expect(committed === validatorsModule(readContractDocument(), contractSha256())).toBe(true)
})
