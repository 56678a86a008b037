// Writes contract/validators.gen.ts: every validator of the document compiled ahead of time by Ajv.
import { _, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import standalone from 'ajv/dist/standalone/index.js'
import { contractFormats } from './formats.ts'
import { isRecord, type OpenApiDocument } from './openapi-document.ts'
import { listOperations } from './operations.ts'
import { validatorPointers } from './validators.ts'

// ajv/dist/standalone is CommonJS whose module.exports is the function itself; TypeScript's NodeNext
// view of it is the namespace, so it is typed as what Node really hands over.
const standaloneCode = standalone as unknown as typeof standalone.default

/** The `$id` the whole document is added to Ajv under; every schema is reached by a pointer into it. */
const documentId = 'openapi.json'

// Keywords OpenAPI 3.1 adds around and inside JSON Schema 2020-12 (§4.8.1 root object, §4.8.24 schema
// object). They are registered as annotations so strict mode still catches every other unknown keyword.
const openApiKeywords = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'externalDocs',
  'discriminator',
  'xml',
  'example',
]

/**
 * Compiles every validator of the document (request bodies, parameters, response bodies and headers,
 * component schemas) with Ajv 2020 and returns them as the source of one ES module: what
 * `npm run generate` writes to `contract/validators.gen.ts`. Compiling them at every start cost ~100 ms
 * of CPU per process (the mock's first request, each conformance run); the module only loads functions.
 * @example writeFileSync('contract/validators.gen.ts', validatorsModule(readContractDocument(), contractSha256()))
 */
export function validatorsModule(document: OpenApiDocument, sourceSha256: string): string {
  // `formats` is the module's own binding of contractFormats: the generated code refers to it by name.
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    allErrors: true,
    validateFormats: true,
    // Strict mode refuses unknown keywords here; validators.test.ts and Redocly check the document
    // against the JSON Schema meta-schema.
    validateSchema: false,
    formats: contractFormats,
    code: { source: true, formats: _`formats` },
  })
  ajv.addVocabulary([...openApiKeywords, ...extensionKeywords(document)])
  ajv.addSchema(document as object, documentId, undefined, false)

  const runtime = new Map<string, string>()
  const entries: string[] = []
  for (const [key, pointer] of validatorPointers(document, listOperations(document))) {
    let validate: ValidateFunction
    try {
      validate = ajv.compile({ $ref: `${documentId}${pointer}` })
    } catch (cause) {
      throw new Error(
        `The schema at ${pointer} does not compile (${String(cause)}). Make sure it is valid JSON Schema 2020-12 and its $refs exist.`,
        { cause },
      )
    }
    // One validator per scope: Ajv's multi-export output can declare a shared function twice.
    const code = standaloneCode(ajv, validate).replace(/require\("([^"]+)"\)/g, (_match, path: string) => {
      if (!runtime.has(path)) runtime.set(path, `runtime${runtime.size}`)
      return runtime.get(path) as string
    })
    entries.push(
      `  ${JSON.stringify(key)}: (() => {\n    const module = { exports: {} }\n    ${code}\n    return module.exports\n  })(),`,
    )
  }
  const imports = [...runtime].map(([path, name]) => `import ${name} from '${path}.js'\n`).join('')
  return `// @ts-nocheck: Ajv's standalone code is plain JavaScript.
// Generated from the OpenAPI YAML beside this file by \`npm run generate\` (contract/validators-module.ts):
// do not edit. One validator per schema the toolkit validates against, keyed as contract/validators.ts
// looks them up.
import type { ValidateFunction } from 'ajv'
import { contractFormats as formats } from './formats.ts'
${imports}
/** SHA-256 of the YAML this was generated from. */
export const sourceSha256 = '${sourceSha256}'

export const compiledValidators: Record<string, ValidateFunction> = {
${entries.join('\n')}
}
`
}

function extensionKeywords(document: OpenApiDocument): string[] {
  const found = new Set<string>()
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit)
    else if (isRecord(value))
      for (const [key, inner] of Object.entries(value)) {
        if (key.startsWith('x-')) found.add(key)
        visit(inner)
      }
  }
  visit(document)
  return [...found].sort()
}
