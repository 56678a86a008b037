// Generated from the OpenAPI YAML beside this file by `npm run generate`: do not edit.
import type { OpenApiDocument } from './openapi-document.ts'

/** SHA-256 of the YAML this was generated from. */
export const sourceSha256 = 'f00643fdd4ef0ef7eac18b665d466953bc245929453652cfe8e07ddccdd7fe51'

export const openapiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Animal Store Service',
    version: '1.0.0',
    description:
      'An animal store interface for listing, adding and retrieving animals over\nHTTP with JSON bodies. Clients with an API key can list animals (optionally\nfiltered by availability status, with a page size), add an animal, and\nretrieve one animal by its identifier (deprecated).\n\nNot stated by the service description, and therefore not defined here:\nthe Category resource (its fields and endpoints), status transitions,\npagination controls other than `limit` and any pagination metadata, how\nAPI keys are issued (scopes, expiry), events and webhooks, the set of\nError `code` values, and rate limits. The endpoints of this document carry\nno stability marker (`experimental` or `beta`).\n',
  },
  servers: [
    {
      url: '{base_url}/v1',
      description:
        'Production. Set `base_url` to the production address, without the `/v1` prefix (the default is a placeholder); the path prefix is always `/v1`.',
      variables: {
        base_url: {
          default: 'https://animal-store.invalid',
        },
      },
    },
    {
      url: '{staging_base_url}/v1',
      description:
        'Staging. Set `staging_base_url` to the staging address, without the `/v1` prefix (the default is a placeholder); the path prefix is always `/v1`.',
      variables: {
        staging_base_url: {
          default: 'https://staging.animal-store.invalid',
        },
      },
    },
  ],
  security: [
    {
      bearerAuth: [],
    },
  ],
  tags: [
    {
      name: 'animals',
      description: 'Listing, adding and retrieving animals.',
    },
  ],
  'x-tagGroups': [
    {
      name: 'Store',
      tags: [],
    },
    {
      name: 'Pets',
      tags: [],
    },
  ],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        summary: 'List animals',
        description: 'Returns a paginated list of animals.',
        tags: ['animals'],
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Maximum number of animals returned.',
            schema: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              default: 20,
            },
          },
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Keeps only animals with this status.',
            schema: {
              $ref: '#/components/schemas/PetStatus',
            },
          },
        ],
        responses: {
          '200': {
            description: 'The page of animals.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/Pets',
                },
              },
            },
          },
          '401': {
            $ref: '#/components/responses/Unauthorized',
          },
        },
      },
      post: {
        operationId: 'createPet',
        summary: 'Add an animal',
        description:
          'Adds an animal. The request body is required and is a NewPet (`name` and `categoryId` required).',
        tags: ['animals'],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/NewPet',
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Animal added; the body carries the assigned `id`.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/Pet',
                },
              },
            },
          },
          '400': {
            $ref: '#/components/responses/BadRequest',
          },
          '401': {
            $ref: '#/components/responses/Unauthorized',
          },
        },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        summary: 'Get an animal (deprecated)',
        description:
          'Returns one animal by its identifier.\n\nDeprecated: scheduled for removal on 2030-12-05 (5 December 2030).\nReplacement: `GET /pets` with the `status` filter.\n',
        tags: ['animals'],
        deprecated: true,
        'x-sunset': '2030-12-05',
        'x-replaced-by': {
          operationId: 'listPets',
          method: 'GET',
          path: '/pets',
          parameters: ['status'],
        },
        parameters: [
          {
            name: 'petId',
            in: 'path',
            required: true,
            description: 'The identifier of the animal.',
            schema: {
              type: 'integer',
              format: 'int64',
            },
          },
        ],
        responses: {
          '200': {
            description: 'The requested animal.',
            headers: {
              Deprecation: {
                $ref: '#/components/headers/Deprecation',
              },
              Sunset: {
                $ref: '#/components/headers/Sunset',
              },
            },
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/Pet',
                },
              },
            },
          },
          '401': {
            description: 'Missing or invalid API key.',
            headers: {
              Deprecation: {
                $ref: '#/components/headers/Deprecation',
              },
              Sunset: {
                $ref: '#/components/headers/Sunset',
              },
            },
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/Error',
                },
              },
            },
          },
          '404': {
            description: 'The requested resource could not be found.',
            headers: {
              Deprecation: {
                $ref: '#/components/headers/Deprecation',
              },
              Sunset: {
                $ref: '#/components/headers/Sunset',
              },
            },
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/Error',
                },
              },
            },
          },
        },
      },
    },
    '/store/orders': {
      get: {
        summary: 'List orders',
        description:
          'Named by the service description as existing. Its parameters, payload\nand responses are not stated, so none are defined here; like every\noperation it requires the API key. The one `default` response below\nstates no status and no body: it is there because common OpenAPI\ntools refuse an operation without responses.\n',
        'x-hideTryItPanel': true,
        responses: {
          default: {
            description:
              "Not stated by the service description: the status codes and bodies of this operation's responses are not defined.",
          },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'Every operation requires an API key sent as `Authorization: Bearer <API_KEY>`. How keys are issued, their scopes and expiry are not stated.',
      },
    },
    schemas: {
      PetStatus: {
        type: 'string',
        description: "An animal's availability status.",
        enum: ['available', 'pending', 'sold'],
      },
      NewPet: {
        type: 'object',
        description: 'Request body for creating an animal.',
        required: ['name', 'categoryId'],
        properties: {
          name: {
            type: 'string',
            description: "The animal's name.",
          },
          categoryId: {
            type: 'integer',
            format: 'int64',
            description: 'Identifier of the category the animal belongs to.',
          },
          status: {
            $ref: '#/components/schemas/PetStatus',
          },
        },
      },
      Pet: {
        description: 'An animal as returned; all fields of NewPet plus `id`.',
        allOf: [
          {
            $ref: '#/components/schemas/NewPet',
          },
          {
            type: 'object',
            required: ['id'],
            properties: {
              id: {
                type: 'integer',
                format: 'int64',
                description: 'Unique identifier assigned by the service on creation.',
              },
            },
          },
        ],
      },
      Pets: {
        type: 'array',
        description: 'The body of the list response.',
        items: {
          $ref: '#/components/schemas/Pet',
        },
      },
      Error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: {
          code: {
            type: 'string',
            description: 'Machine-readable error code (the set of values is not stated).',
          },
          message: {
            type: 'string',
            description: 'Human-readable description.',
          },
          status: {
            type: 'integer',
            description: 'The HTTP status code.',
          },
        },
      },
    },
    responses: {
      BadRequest: {
        description: 'Body is missing required fields or contains invalid values.',
        content: {
          'application/json': {
            schema: {
              $ref: '#/components/schemas/Error',
            },
          },
        },
      },
      Unauthorized: {
        description: 'Missing or invalid API key.',
        content: {
          'application/json': {
            schema: {
              $ref: '#/components/schemas/Error',
            },
          },
        },
      },
    },
    headers: {
      Deprecation: {
        description: 'RFC 9745: the operation is deprecated; a Structured Field Date such as `@1688169599`.',
        required: false,
        schema: {
          type: 'string',
          pattern: '^@-?[0-9]{1,15}$',
        },
      },
      Sunset: {
        description:
          'RFC 8594: when the operation will stop responding, as an HTTP-date; for getPet the date is 2030-12-05.',
        required: false,
        schema: {
          type: 'string',
          pattern:
            '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
        },
      },
    },
  },
}
