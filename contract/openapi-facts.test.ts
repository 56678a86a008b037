// biome-ignore-all lint/suspicious/noExplicitAny: the facts walk untyped JSON of the document by pointer.
import { describe, expect, it } from 'vitest'
import { contract } from './index.ts'

// Every fact of shared/animal-store-service.md, read back from the loaded document. An edit of
// openapi.yaml that drops or changes one of them fails here, named after the fact it broke.
const doc = contract.document as Record<string, any>
const schemas = doc.components.schemas
const op = (id: string) => contract.operation(id)
const param = (id: string, name: string) => {
  const found = op(id).parameters.find((p) => p.name === name)
  if (!found) throw new Error(`${id} has no parameter ${name}`)
  return found
}
const at = (pointer: string): any =>
  pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce((value, segment) => value?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')], doc)
const paramSchema = (id: string, name: string) => {
  const schema = at(param(id, name).schemaPointer)
  return schema.$ref ? at(schema.$ref) : schema
}

const facts: [string, () => unknown, unknown][] = [
  ['the document is OpenAPI 3.1', () => doc.openapi.startsWith('3.1.'), true],
  ['the interface version is 1.0.0', () => doc.info.version, '1.0.0'],
  ['there are two servers', () => doc.servers.length, 2],
  ['the production server ends in /v1', () => doc.servers[0].url.endsWith('/v1'), true],
  ['the staging server ends in /v1', () => doc.servers[1].url.endsWith('/v1'), true],
  ['the production server says it is production', () => /production/i.test(doc.servers[0].description), true],
  ['the staging server says it is staging', () => /staging/i.test(doc.servers[1].description), true],
  ['the production server variable is base_url', () => Object.keys(doc.servers[0].variables), ['base_url']],
  [
    'the staging server variable is staging_base_url',
    () => Object.keys(doc.servers[1].variables),
    ['staging_base_url'],
  ],
  [
    'server variables have defaults',
    () =>
      doc.servers.every((s: any) =>
        Object.values(s.variables).every((v: any) => typeof v.default === 'string'),
      ),
    true,
  ],
  [
    'the security scheme is HTTP bearer',
    () => doc.components.securitySchemes.bearerAuth,
    expect.objectContaining({ type: 'http', scheme: 'bearer' }),
  ],
  ['bearer security applies to the whole interface', () => doc.security, [{ bearerAuth: [] }]],
  ['there is exactly one security scheme', () => Object.keys(doc.components.securitySchemes), ['bearerAuth']],
  [
    'no operation overrides the global security',
    () =>
      contract.operations.every(
        (o) => !('security' in at(`#/paths/${o.path.replaceAll('/', '~1')}/${o.method.toLowerCase()}`)),
      ),
    true,
  ],
  ['the tag animals exists', () => doc.tags.map((t: any) => t.name), ['animals']],
  [
    'navigation groups are Store and Pets',
    () => doc['x-tagGroups'].map((g: any) => g.name),
    ['Store', 'Pets'],
  ],
  [
    'navigation groups hold no endpoints',
    () => doc['x-tagGroups'].every((g: any) => g.tags.length === 0),
    true,
  ],
  [
    'PetStatus is a string enum',
    () => schemas.PetStatus,
    expect.objectContaining({ type: 'string', enum: ['available', 'pending', 'sold'] }),
  ],
  ['NewPet requires exactly name and categoryId', () => schemas.NewPet.required, ['name', 'categoryId']],
  [
    'NewPet fields are name, categoryId, status',
    () => Object.keys(schemas.NewPet.properties),
    ['name', 'categoryId', 'status'],
  ],
  ['NewPet.name is a string', () => schemas.NewPet.properties.name.type, 'string'],
  ['NewPet.name has no minimum length', () => schemas.NewPet.properties.name.minLength, undefined],
  [
    'NewPet.categoryId is an int64 integer',
    () => schemas.NewPet.properties.categoryId,
    expect.objectContaining({ type: 'integer', format: 'int64' }),
  ],
  [
    'NewPet.status is a PetStatus',
    () => schemas.NewPet.properties.status.$ref,
    '#/components/schemas/PetStatus',
  ],
  ['NewPet.status has no default', () => 'default' in schemas.NewPet.properties.status, false],
  ['Pet extends NewPet', () => schemas.Pet.allOf[0].$ref, '#/components/schemas/NewPet'],
  ['Pet requires id', () => schemas.Pet.allOf[1].required, ['id']],
  [
    'Pet.id is an int64 integer',
    () => schemas.Pet.allOf[1].properties.id,
    expect.objectContaining({ type: 'integer', format: 'int64' }),
  ],
  [
    'Pets is an array of Pet',
    () => schemas.Pets,
    expect.objectContaining({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }),
  ],
  ['Error requires code, message, status', () => schemas.Error.required, ['code', 'message', 'status']],
  ['Error.code is a string', () => schemas.Error.properties.code.type, 'string'],
  ['Error.message is a string', () => schemas.Error.properties.message.type, 'string'],
  ['Error.status is an integer', () => schemas.Error.properties.status.type, 'integer'],
  ['Error.code lists no values (not shown)', () => schemas.Error.properties.code.enum, undefined],
  [
    'the schemas are exactly these five',
    () => Object.keys(schemas),
    ['PetStatus', 'NewPet', 'Pet', 'Pets', 'Error'],
  ],
  [
    'the operations are these four',
    () => contract.operations.map((o) => `${o.method} ${o.path}`),
    ['GET /pets', 'POST /pets', 'GET /pets/{petId}', 'GET /store/orders'],
  ],
  ['GET /pets is listPets', () => op('listPets').method + op('listPets').path, 'GET/pets'],
  ['POST /pets is createPet', () => op('createPet').method + op('createPet').path, 'POST/pets'],
  ['GET /pets/{petId} is getPet', () => op('getPet').method + op('getPet').path, 'GET/pets/{petId}'],
  [
    'the pet operations are tagged animals',
    () => ['listPets', 'createPet', 'getPet'].map((id) => op(id).tags),
    [['animals'], ['animals'], ['animals']],
  ],
  [
    'listPets has query parameters limit and status',
    () => op('listPets').parameters.map((p) => `${p.in}:${p.name}`),
    ['query:limit', 'query:status'],
  ],
  ['listPets limit is optional', () => param('listPets', 'limit').required, false],
  [
    'listPets limit is an integer 1..100 default 20',
    () => paramSchema('listPets', 'limit'),
    { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  ],
  ['listPets status is optional', () => param('listPets', 'status').required, false],
  [
    'listPets status is a PetStatus',
    () => at(param('listPets', 'status').schemaPointer).$ref,
    '#/components/schemas/PetStatus',
  ],
  ['listPets has no request body', () => op('listPets').requestBody, undefined],
  [
    'listPets answers exactly 200 and 401',
    () => op('listPets').responses.map((r) => r.status),
    ['200', '401'],
  ],
  [
    'listPets 200 is Pets',
    () => at(op('listPets').responses[0]?.schemaPointer ?? '').$ref,
    '#/components/schemas/Pets',
  ],
  ['createPet has a required body', () => op('createPet').requestBody?.required, true],
  [
    'createPet body is application/json only',
    () => op('createPet').requestBody?.contentTypes,
    ['application/json'],
  ],
  [
    'createPet body is a NewPet',
    () => at(op('createPet').requestBody?.schemaPointer ?? '').$ref,
    '#/components/schemas/NewPet',
  ],
  [
    'createPet answers exactly 201, 400 and 401',
    () => op('createPet').responses.map((r) => r.status),
    ['201', '400', '401'],
  ],
  [
    'createPet 201 is a Pet',
    () => at(op('createPet').responses[0]?.schemaPointer ?? '').$ref,
    '#/components/schemas/Pet',
  ],
  [
    'getPet has a required path parameter petId',
    () => op('getPet').parameters.map((p) => [p.in, p.name, p.required]),
    [['path', 'petId', true]],
  ],
  [
    'getPet petId is an int64 integer',
    () => paramSchema('getPet', 'petId'),
    { type: 'integer', format: 'int64' },
  ],
  ['getPet has no request body', () => op('getPet').requestBody, undefined],
  [
    'getPet answers exactly 200, 401 and 404',
    () => op('getPet').responses.map((r) => r.status),
    ['200', '401', '404'],
  ],
  [
    'getPet 200 is a Pet',
    () => at(op('getPet').responses[0]?.schemaPointer ?? '').$ref,
    '#/components/schemas/Pet',
  ],
  ['getPet is deprecated', () => op('getPet').deprecated, true],
  [
    'only getPet is deprecated',
    () => contract.operations.filter((o) => o.deprecated).map((o) => o.id),
    ['getPet'],
  ],
  [
    'getPet states its removal date in its description',
    () => /2030-12-05/.test(at('#/paths/~1pets~1{petId}/get').description),
    true,
  ],
  [
    'getPet states its replacement in its description',
    () => /GET \/pets.*status/.test(at('#/paths/~1pets~1{petId}/get').description),
    true,
  ],
  [
    'getPet carries its removal date machine-readably',
    () => op('getPet').extensions['x-sunset'],
    '2030-12-05',
  ],
  [
    'getPet carries its replacement machine-readably',
    () => op('getPet').extensions['x-replaced-by'],
    { operationId: 'listPets', method: 'GET', path: '/pets', parameters: ['status'] },
  ],
  [
    'getPet declares optional Deprecation and Sunset headers on every response',
    () => op('getPet').responses.map((r) => r.headers.map((h) => `${h.name}:${h.required}`)),
    [
      ['deprecation:false', 'sunset:false'],
      ['deprecation:false', 'sunset:false'],
      ['deprecation:false', 'sunset:false'],
    ],
  ],
  [
    'the Sunset header accepts the removal date',
    () => contract.validateResponseHeader('getPet', 200, 'Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT').ok,
    true,
  ],
  [
    'the Deprecation header accepts an RFC 9745 date',
    () => contract.validateResponseHeader('getPet', 200, 'Deprecation', '@1688169599').ok,
    true,
  ],
  [
    'every 4xx body is an Error',
    () =>
      contract.operations
        .flatMap((o) =>
          o.responses
            .filter((r) => r.status.startsWith('4'))
            .map(
              (r) =>
                contract.validateResponseBody(o.id, r.status, {
                  code: 'x',
                  message: 'y',
                  status: Number(r.status),
                }).ok,
            ),
        )
        .every(Boolean),
    true,
  ],
  [
    '400 means a body missing required fields or with invalid values',
    () => at('#/components/responses/BadRequest').description,
    'Body is missing required fields or contains invalid values.',
  ],
  [
    '401 means a missing or invalid API key',
    () => at('#/components/responses/Unauthorized').description,
    'Missing or invalid API key.',
  ],
  [
    '404 means the resource could not be found',
    () => op('getPet').responses[2]?.description,
    'The requested resource could not be found.',
  ],
  [
    // The description gives listPets, createPet and getPet as operation names and none for this one. An
    // operationId is that name: generated clients call it, reports show it. So none is invented.
    'GET /store/orders exists without an operation name (no operationId)',
    () => op('GET /store/orders').operationId,
    undefined,
  ],
  [
    'GET /store/orders hides its try-it panel',
    () => op('GET /store/orders').extensions['x-hideTryItPanel'],
    true,
  ],
  ['GET /store/orders invents no parameters', () => op('GET /store/orders').parameters, []],
  ['GET /store/orders states no response status', () => op('GET /store/orders').declaresResponses, false],
  [
    // Tools (Dredd, Mockoon, orval, openapi-backend, Prism) refuse or crash on an operation without
    // responses; a lone `default` names no status and no body, so it invents nothing.
    'GET /store/orders has only a default response, with no body, saying its responses are not stated',
    () => {
      const { defaultResponse } = op('GET /store/orders')
      return [
        Object.keys(at('#/paths/~1store~1orders/get/responses')),
        defaultResponse?.schemaPointer,
        /not stated/i.test(defaultResponse?.description ?? ''),
      ]
    },
    [['default'], undefined, true],
  ],
  ['GET /store/orders requires the API key', () => op('GET /store/orders').security, [{ bearerAuth: [] }]],
  [
    'no operation carries a stability marker',
    () =>
      contract.operations.filter(
        (o) => 'x-stability' in o.extensions || 'x-beta' in o.extensions || 'x-experimental' in o.extensions,
      ).length,
    0,
  ],
  [
    'no pagination metadata or controls beyond limit are invented',
    () => contract.operations.flatMap((o) => o.parameters.map((p) => p.name)).sort(),
    ['limit', 'petId', 'status'],
  ],
  ['no webhooks are invented', () => doc.webhooks, undefined],
]

describe('the contract carries every fact of the service description', () => {
  it.each(facts)('%s', (_fact, read, expected) => {
    expect(read()).toEqual(expected)
  })
})
