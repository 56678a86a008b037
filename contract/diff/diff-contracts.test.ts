import { apiDiff } from 'api-smart-diff'
import { describe, expect, it, vi } from 'vitest'
import { contract } from '../index.ts'
import type { OpenApiDocument } from '../openapi-document.ts'
import type { ContractDiff, FailOn } from './contract-change.ts'
import { diffContracts } from './index.ts'

// Every row changes a copy of the real contract and pins what the diff makes of it: each change as
// "operation where [pointer] → who it breaks", and the exit code.
// biome-ignore lint/suspicious/noExplicitAny: the rows edit the document freely, as a person edits YAML.
type Edit = (document: any) => void

function edited(edit: Edit): OpenApiDocument {
  const copy = structuredClone(contract.document)
  edit(copy)
  return copy
}

function diffOf(
  edit: Edit,
  options: { failOn?: FailOn; date?: string; changelog?: string } = {},
): ContractDiff {
  const head = edited(edit)
  return diffContracts(
    { document: contract.document, source: 'base.yaml', version: contract.document.info.version },
    { document: head, source: 'head.yaml', version: head.info.version },
    {
      failOn: options.failOn ?? 'any',
      date: options.date ?? '2026-11-27',
      changelog:
        options.changelog === undefined ? undefined : { path: 'CHANGELOG.md', text: options.changelog },
    },
  )
}

/**
 * One line per change: `createPet request /tag → consumers`. The change of info.version itself is left
 * out: the version check judges it (below).
 */
function lines(diff: ContractDiff): string[] {
  const changes = diff.changes.filter((change) => change.location.documentPointer !== '/info/version')
  return changes.map(({ operation, location, breaks }) => {
    const where = [
      operation ? (operation.id ?? `${operation.method} ${operation.path}`) : 'document',
      location.in === 'document' ? location.documentPointer : location.in,
      location.status,
      location.parameter ? `${location.parameter.in}:${location.parameter.name}` : undefined,
      location.header,
      location.pointer || undefined,
    ]
    return `${where.filter(Boolean).join(' ')} → ${breaks.join('+') || 'nobody'}`
  })
}

const bumped: Edit = (document) => {
  document.info.version = '2.0.0'
}
const also =
  (...edits: Edit[]): Edit =>
  (document) => {
    for (const edit of edits) edit(document)
  }

const rows: [string, Edit, string[], 0 | 1][] = [
  [
    'a $ref moved to another component name (same resolved schema) breaks nobody',
    (d) => {
      d.components.schemas.Animal = d.components.schemas.NewPet
      delete d.components.schemas.NewPet
      d.paths['/pets'].post.requestBody.content['application/json'].schema.$ref =
        '#/components/schemas/Animal'
      d.components.schemas.Pet.allOf[0].$ref = '#/components/schemas/Animal'
    },
    [],
    0,
  ],
  [
    'a $ref inlined (same resolved schema) is a restructuring that breaks nobody',
    (d) => {
      d.paths['/pets'].get.parameters[1].schema = { ...d.components.schemas.PetStatus }
    },
    // The restructuring, and PetStatus's description, now written beside the parameter.
    ['listPets request query:status → nobody', 'listPets request query:status → nobody'],
    0,
  ],
  [
    "Pet's allOf flattened into one object (same resolved schema) breaks nobody",
    (d) => {
      d.components.schemas.Pet = {
        type: 'object',
        required: ['id', 'name', 'categoryId'],
        properties: {
          ...d.components.schemas.NewPet.properties,
          id: d.components.schemas.Pet.allOf[1].properties.id,
        },
      }
    },
    ['listPets response 200 → nobody', 'createPet response 201 → nobody', 'getPet response 200 → nobody'],
    0,
  ],
  [
    'a $ref inlined with an enum value removed: only the removal breaks, not the respelling',
    also(bumped, (d) => {
      d.paths['/pets'].get.parameters[1].schema = {
        ...d.components.schemas.PetStatus,
        enum: ['available', 'pending'],
      }
    }),
    // PetStatus's description, now beside the parameter, and the removed value.
    ['listPets request query:status → nobody', 'listPets request query:status → consumers'],
    1,
  ],
  [
    "Pet's allOf flattened with a new required field: only the requirement breaks, servers",
    also(bumped, (d) => {
      d.components.schemas.Pet = {
        type: 'object',
        required: ['id', 'name', 'categoryId', 'status'],
        properties: {
          ...d.components.schemas.NewPet.properties,
          id: d.components.schemas.Pet.allOf[1].properties.id,
        },
      }
    }),
    [
      'listPets response 200 /*/status → providers',
      'createPet response 201 /status → providers',
      'getPet response 200 /status → providers',
    ],
    1,
  ],
  [
    'a field added to NewPet as required breaks clients creating pets, and servers answering with a Pet (allOf)',
    also(bumped, (d) => {
      d.components.schemas.NewPet.properties.tag = { type: 'string' }
      d.components.schemas.NewPet.required.push('tag')
    }),
    [
      'listPets response 200 /*/tag → providers',
      'createPet request /tag → consumers',
      'createPet response 201 /tag → providers',
      'getPet response 200 /tag → providers',
    ],
    1,
  ],
  [
    'a new optional response field breaks nobody',
    (d) => {
      d.components.schemas.Pet.allOf[1].properties.tag = { type: 'string' }
    },
    [
      'listPets response 200 /*/tag → nobody',
      'createPet response 201 /tag → nobody',
      'getPet response 200 /tag → nobody',
    ],
    0,
  ],
  [
    'a type array reordered or written as one type ([string] for string) breaks nobody',
    (d) => {
      d.components.schemas.NewPet.properties.name.type = ['string']
      d.components.schemas.Pet.allOf[1].properties.id.type = ['integer']
    },
    // One "schema spelling" change where each schema is used.
    [
      'listPets response 200 → nobody',
      'createPet request → nobody',
      'createPet response 201 → nobody',
      'getPet response 200 → nobody',
    ],
    0,
  ],
  [
    'a field made nullable widens the request (nobody) and the response (clients)',
    also(bumped, (d) => {
      d.components.schemas.NewPet.properties.name.type = ['string', 'null']
    }),
    [
      'listPets response 200 /*/name → consumers',
      'createPet request /name → nobody',
      'createPet response 201 /name → consumers',
      'getPet response 200 /name → consumers',
    ],
    1,
  ],
  [
    'a response-only field made nullable breaks clients; made non-null again, it breaks servers',
    also(bumped, (d) => {
      d.components.schemas.Pet.allOf[1].properties.id.type = ['integer', 'null']
    }),
    [
      'listPets response 200 /*/id → consumers',
      'createPet response 201 /id → consumers',
      'getPet response 200 /id → consumers',
    ],
    1,
  ],
  [
    'description, summary, example and x- extension edits break nobody',
    (d) => {
      d.components.schemas.NewPet.description = 'What a client sends to add an animal.'
      d.components.schemas.NewPet.properties.name.example = 'Rex'
      d.paths['/pets'].get.summary = 'List the animals'
      d.paths['/pets'].get['x-internal-owner'] = 'team-pets'
    },
    [
      'listPets operation → nobody',
      'listPets response 200 /* → nobody',
      'listPets response 200 /*/name → nobody',
      'listPets operation → nobody',
      'createPet request → nobody',
      'createPet request /name → nobody',
      'createPet response 201 → nobody',
      'createPet response 201 /name → nobody',
      'getPet response 200 → nobody',
      'getPet response 200 /name → nobody',
    ],
    0,
  ],
  [
    'a removed operation breaks clients, with its sunset when it had one',
    also(bumped, (d) => {
      delete d.paths['/pets/{petId}']
    }),
    ['getPet operation → consumers'],
    1,
  ],
  [
    'a removed parameter breaks clients',
    also(bumped, (d) => {
      d.paths['/pets'].get.parameters.splice(1, 1)
    }),
    ['listPets request query:status → consumers'],
    1,
  ],
  [
    'a removed response field breaks clients',
    also(bumped, (d) => {
      delete d.components.schemas.Pet.allOf[1].properties.id
      d.components.schemas.Pet.allOf[1].required = []
    }),
    [
      'listPets response 200 /*/id → consumers',
      'createPet response 201 /id → consumers',
      'getPet response 200 /id → consumers',
    ],
    1,
  ],
  [
    'a lowered maximum breaks clients',
    also(bumped, (d) => {
      d.paths['/pets'].get.parameters[0].schema.maximum = 50
    }),
    ['listPets request query:limit → consumers'],
    1,
  ],
  [
    'a raised maximum (a widened request value) breaks nobody',
    (d) => {
      d.paths['/pets'].get.parameters[0].schema.maximum = 200
    },
    ['listPets request query:limit → nobody'],
    0,
  ],
  [
    'an enum value removed breaks clients that send it, and servers that still answer with it',
    also(bumped, (d) => {
      d.components.schemas.PetStatus.enum = ['available', 'pending']
    }),
    [
      'listPets request query:status → consumers',
      'listPets response 200 /*/status → providers',
      'createPet request /status → consumers',
      'createPet response 201 /status → providers',
      'getPet response 200 /status → providers',
    ],
    1,
  ],
  [
    'a new required query parameter breaks clients; a new optional one breaks nobody',
    also(bumped, (d) => {
      d.paths['/pets'].get.parameters.push({
        name: 'shop',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      })
      d.paths['/pets'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } })
    }),
    ['listPets request query:shop → consumers', 'listPets request query:q → nobody'],
    1,
  ],
  [
    'a changed type breaks both sides, once per place it is used',
    also(bumped, (d) => {
      d.components.schemas.NewPet.properties.categoryId.type = 'string'
      delete d.components.schemas.NewPet.properties.categoryId.format
    }),
    [
      'listPets response 200 /*/categoryId → consumers+providers',
      'createPet request /categoryId → consumers+providers',
      'createPet response 201 /categoryId → consumers+providers',
      'getPet response 200 /categoryId → consumers+providers',
    ],
    1,
  ],
  [
    'a changed format breaks both sides',
    also(bumped, (d) => {
      d.paths['/pets/{petId}'].get.parameters[0].schema.format = 'int32'
    }),
    ['getPet request path:petId → consumers+providers'],
    1,
  ],
  [
    'a new operation breaks nobody',
    (d) => {
      d.paths['/pets/{petId}'].delete = {
        operationId: 'deletePet',
        responses: { '204': { description: 'Deleted.' } },
      }
    },
    ['deletePet operation → nobody'],
    0,
  ],
  [
    'a new required parameter inserted first is named as itself, not as the parameter once at its index',
    also(bumped, (d) => {
      d.paths['/pets'].get.parameters.unshift({
        name: 'shop',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      })
    }),
    ['listPets request query:shop → consumers'],
    1,
  ],
  [
    "a new server path prefix breaks both sides, though the differ calls the server's URL an annotation",
    also(bumped, (d) => {
      d.servers[0].url = '{base_url}/v2'
    }),
    ['document /servers/0/url → consumers+providers'],
    1,
  ],
  [
    'a renamed operationId breaks nobody: the wire is the same',
    (d) => {
      d.paths['/pets'].get.operationId = 'listAnimals'
    },
    ['listPets operation → nobody'],
    0,
  ],
  [
    "a path item's own parameter is judged in each of its operations, named",
    also(bumped, (d) => {
      const [petId] = d.paths['/pets/{petId}'].get.parameters.splice(0, 1)
      d.paths['/pets/{petId}'].parameters = [{ ...petId, schema: { type: 'integer', format: 'int32' } }]
    }),
    ['getPet request path:petId → consumers+providers'],
    1,
  ],
  [
    "a response's media type renamed: the old one removed breaks clients, the new one nobody",
    also(bumped, (d) => {
      const { content } = d.paths['/pets'].get.responses['200']
      content['application/vnd.pets+json'] = content['application/json']
      delete content['application/json']
    }),
    ['listPets response 200 → consumers', 'listPets response 200 → nobody'],
    1,
  ],
  [
    'response headers added: an optional one breaks nobody, a required one servers',
    also(bumped, (d) => {
      d.paths['/pets'].get.responses['200'].headers = { 'X-Total': { schema: { type: 'integer' } } }
      d.paths['/pets'].post.responses['201'].headers = {
        Location: { required: true, schema: { type: 'string' } },
      }
    }),
    ['listPets response 200 → nobody', 'createPet response 201 → providers'],
    1,
  ],
  [
    'an unnamed operation is named by its method and path',
    also(bumped, (d) => {
      delete d.paths['/store/orders']
    }),
    ['GET /store/orders operation → consumers'],
    1,
  ],
]

describe('diffContracts on a table of changed contracts', () => {
  it.each(rows)('%s', (_, edit, expected, exit) => {
    const diff = diffOf(edit)
    expect(lines(diff)).toEqual(expected)
    expect(diff.verdict.exitCode).toBe(exit)
    for (const change of diff.changes) expect(change.reason).toMatch(/\w.*\.$/)
  })
})

describe('where a breaking change is, for matching it against recorded interactions', () => {
  it('names the operation, method, request path with the server prefix, and the body pointer', () => {
    const diff = diffOf(also(bumped, (d) => d.components.schemas.NewPet.required.push('status')))
    expect(diff.changes.find((change) => change.location.in === 'request')).toEqual({
      action: 'added',
      what: 'required "status"',
      operation: { id: 'createPet', method: 'POST', path: '/pets', requestPath: '/v1/pets' },
      location: {
        in: 'request',
        mediaType: 'application/json',
        pointer: '/status',
        schemaPointer: '/required/2',
      },
      after: 'status',
      breaks: ['consumers'],
      reason: 'A new required request field: clients that leave it out are refused.',
    })
  })

  it('reports the sunset of an operation removed before it, and lets the removal pass from that day', () => {
    const removeGetPet: Edit = also(bumped, (d) => {
      delete d.paths['/pets/{petId}']
    })
    const early = diffOf(removeGetPet, { date: '2030-12-04' })
    expect(early.changes[1]).toMatchObject({ sunset: '2030-12-05', breaks: ['consumers'] })
    expect(early.changes[1]?.reason).toContain('before its sunset, 2030-12-05 (today is 2030-12-04)')
    const due = diffOf(removeGetPet, { date: '2030-12-05' })
    expect(due.changes[1]).toMatchObject({ sunset: '2030-12-05', breaks: [] })
    expect(due.verdict.exitCode).toBe(0)
  })
})

describe('--fail-on', () => {
  const providersOnly: Edit = (d) => {
    d.components.schemas.Pet.allOf[1].required.push('status')
  }
  const consumersOnly: Edit = (d) => {
    d.paths['/pets'].get.parameters[0].schema.maximum = 50
  }

  it.each([
    ['any', providersOnly, 1],
    ['providers', providersOnly, 1],
    ['consumers', providersOnly, 0],
    ['any', consumersOnly, 1],
    ['consumers', consumersOnly, 1],
    ['providers', consumersOnly, 0],
  ] as const)('--fail-on %s counts only that side', (failOn, edit, exit) => {
    expect(diffOf(edit, { failOn }).verdict.exitCode).toBe(exit)
  })
})

describe('the deprecation lifecycle', () => {
  const deprecatedOnly: Edit = (d) => {
    d.paths['/pets'].get.deprecated = true
  }
  const sunsetOnly: Edit = (d) => {
    d.paths['/pets'].get['x-sunset'] = '2031-01-01'
  }

  const sunsetNotADate: Edit = (d) => {
    d.paths['/pets/{petId}'].get['x-sunset'] = 'next December'
  }

  it.each([
    ['deprecated without a sunset', deprecatedOnly, 'deprecated-without-sunset', 'listPets'],
    ['a sunset without deprecated: true', sunsetOnly, 'sunset-without-deprecated', 'listPets'],
    ['a sunset that is not a date', sunsetNotADate, 'sunset-not-a-date', 'getPet'],
  ])('%s is a finding of the diff, and fails it', (_, edit, kind, operationId) => {
    const diff = diffOf(edit)
    expect(diff.findings.map((finding) => [finding.kind, finding.operation?.id])).toEqual([
      [kind, operationId],
    ])
    expect(diff.verdict.exitCode).toBe(1)
  })

  it("leaves getPet's own marks alone: deprecated with x-sunset 2030-12-05, as they were", () => {
    expect(diffOf(() => {}).findings).toEqual([])
  })
})

describe('the version check', () => {
  const breaking: Edit = (d) => {
    d.paths['/pets'].get.parameters[0].schema.maximum = 50
  }

  it('asks for a new major info.version when a change breaks', () => {
    expect(diffOf(breaking).findings).toEqual([
      {
        kind: 'version-not-bumped',
        message:
          'A breaking change needs a new major version, but info.version goes from 1.0.0 to 1.0.0: set it to 2.0.0, or make the change compatible.',
      },
    ])
    expect(diffOf(also(breaking, bumped)).findings).toEqual([])
  })

  it('says so when a version is not MAJOR.MINOR.PATCH, as it cannot tell a new major', () => {
    const unversioned: Edit = (d) => {
      d.info.version = '2026-11'
    }
    expect(diffOf(also(breaking, unversioned)).findings.map((finding) => finding.kind)).toEqual([
      'version-not-semver',
    ])
  })

  it('asks nothing of the version when nothing breaks', () => {
    expect(diffOf((d) => (d.paths['/pets'].get.summary = 'Animals')).findings).toEqual([])
  })

  it('asks the changelog, when given, to name the new version', () => {
    const edit = also(breaking, bumped)
    expect(
      diffOf(edit, { changelog: '## [Unreleased]\n- contract 2.0.0: limit at most 50\n' }).findings,
    ).toEqual([])
    expect(
      diffOf(edit, { changelog: '## [Unreleased]\n- contract 2.0.01\n' }).findings.map((f) => f.kind),
    ).toEqual(['changelog-without-version'])
  })
})

// Where api-smart-diff 1.0.6 classifies wrongly for these cases, our rules decide. Each row pins what the
// differ says (so an upgrade that fixes it shows here) and what the diff says instead.
describe('corrections to api-smart-diff', () => {
  const corrections: [string, Edit, string, string, [string, 'request' | 'response'], string[][]][] = [
    [
      'a $ref inlined: the differ says breaking, the schema resolves the same',
      (d) => {
        d.paths['/pets'].get.parameters[1].schema = { ...d.components.schemas.PetStatus }
      },
      'paths//pets/get/parameters/1/schema/type',
      'breaking',
      ['listPets', 'request'],
      [[], []],
    ],
    [
      'nullable widened in a request: the differ says breaking, clients still send what they sent',
      (d) => {
        d.components.schemas.NewPet.properties.name.type = ['string', 'null']
      },
      'paths//pets/post/requestBody/content/application/json/schema/properties/name/type',
      'breaking',
      ['createPet', 'request'],
      [[]],
    ],
    [
      'nullable widened in a response: the differ says non-breaking, clients may now read null',
      (d) => {
        d.components.schemas.NewPet.properties.name.type = ['string', 'null']
      },
      'paths//pets/{petId}/get/responses/200/content/application/json/schema/allOf/0/properties/name/type',
      'non-breaking',
      ['getPet', 'response'],
      [['consumers']],
    ],
    [
      'a new required response field: the differ leaves it unclassified, servers without it no longer conform',
      (d) => {
        d.components.schemas.Pet.allOf[1].required.push('status')
      },
      'paths//pets/{petId}/get/responses/200/content/application/json/schema/allOf/1/required/1',
      'unclassified',
      ['getPet', 'response'],
      [['providers']],
    ],
    [
      'a response status removed: the differ says breaking for clients, it is servers that break',
      (d) => {
        delete d.paths['/pets'].get.responses['401']
      },
      'paths//pets/get/responses/401',
      'breaking',
      ['listPets', 'response'],
      [['providers']],
    ],
  ]

  it.each(corrections)('%s', (_, edit, path, differSays, [operationId, side], breaks) => {
    const head = edited(edit)
    const raw = apiDiff(structuredClone(contract.document), structuredClone(head)).find(
      (diff) => diff.path.join('/') === path,
    )
    expect(raw?.type).toBe(differSays)
    const ours = diffOf(edit).changes.filter(
      (change) => change.operation?.id === operationId && change.location.in === side,
    )
    expect(ours.map((change) => change.breaks)).toEqual(breaks)
  })

  it('nullable narrowed: the differ says non-breaking in a response, where servers that send null break; breaking in a request, for clients', () => {
    const nullable = edited((d) => {
      d.components.schemas.NewPet.properties.name.type = ['string', 'null']
    })
    const raw = apiDiff(structuredClone(nullable), structuredClone(contract.document))
    const typeAt = (path: string) => raw.find((diff) => diff.path.join('/') === path)?.type
    expect(
      typeAt(
        'paths//pets/{petId}/get/responses/200/content/application/json/schema/allOf/0/properties/name/type',
      ),
    ).toBe('non-breaking')
    expect(typeAt('paths//pets/post/requestBody/content/application/json/schema/properties/name/type')).toBe(
      'breaking',
    )
    const ours = diffContracts(
      { document: nullable, source: 'base.yaml', version: '1.0.0' },
      { document: contract.document, source: 'head.yaml', version: '2.0.0' },
      { failOn: 'any', date: '2026-11-27' },
    )
    expect(lines(ours)).toEqual([
      'listPets response 200 /*/name → providers',
      'createPet request /name → consumers',
      'createPet response 201 /name → providers',
      'getPet response 200 /name → providers',
    ])
  })

  it('prints nothing of the differ on stderr', () => {
    const error = vi.spyOn(console, 'error')
    diffOf((d) => d.components.schemas.Pet.allOf[1].required.push('status'))
    expect(error).not.toHaveBeenCalled()
    error.mockRestore()
  })

  it('leaves the documents it compares as they were (the differ rewrites its input)', () => {
    const head = edited(
      (d) => (d.paths['/pets'].get.parameters[1].schema = { ...d.components.schemas.PetStatus }),
    )
    const [baseBefore, headBefore] = [JSON.stringify(contract.document), JSON.stringify(head)]
    diffContracts(
      { document: contract.document, source: 'b', version: '1.0.0' },
      { document: head, source: 'h', version: '1.0.0' },
      { failOn: 'any', date: '2026-11-27' },
    )
    expect([JSON.stringify(contract.document), JSON.stringify(head)]).toEqual([baseBefore, headBefore])
  })
})
