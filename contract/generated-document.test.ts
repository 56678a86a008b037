import { expect, it } from 'vitest'
import { openapiDocument } from './openapi.gen.ts'
import { readContractDocument } from './read-document.ts'

it('keeps the browser copy of the contract identical to the YAML (run `npm run generate` if not)', () => {
  expect(openapiDocument).toEqual(readContractDocument())
})
