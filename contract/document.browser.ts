/** The contract as browsers get it: the generated copy of the YAML (they cannot read files). */
export { openapiDocument as contractDocument } from './openapi.gen.ts'
