// The document's operations as plain records: parameters merged, body, responses and headers, security.
import { ContractError } from './contract-error.ts'
import { followReference, isRecord, type OpenApiDocument, pointerSegment } from './openapi-document.ts'

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE'
const methods: readonly HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']

export interface OperationParameter {
  name: string
  in: 'query' | 'path' | 'header' | 'cookie'
  required: boolean
  /** JSON Pointer of the parameter's schema, for Ajv. */
  schemaPointer: string
  /** The schema's `default`, the value a server uses when the parameter is absent. */
  defaultValue?: unknown
}

export interface OperationResponse {
  /** As declared: '200', '4XX' or 'default'. */
  status: string
  description: string
  /** JSON Pointer of the `application/json` schema, when the response declares a JSON body. */
  schemaPointer?: string
  /** Declared response headers, lower-cased, with their schema pointer and whether they are required. */
  headers: { name: string; required: boolean; schemaPointer: string }[]
}

/** One operation of the contract, as the mock and the conformance suite need it. */
export interface Operation {
  /** The `operationId`, or `"GET /store/orders"` for an operation the contract leaves unnamed. */
  id: string
  operationId?: string
  method: HttpMethod
  /** The templated path relative to the server URL, e.g. `/pets/{petId}`. */
  path: string
  deprecated: boolean
  tags: string[]
  parameters: OperationParameter[]
  requestBody?: { required: boolean; contentTypes: string[]; schemaPointer?: string }
  /** The responses declared for a status code or a range ('200', '4XX'), in document order. */
  responses: OperationResponse[]
  /**
   * The `default` response (OpenAPI 3.1 §4.8.16.1: every status not declared above), when there is one.
   * `GET /store/orders` has only this, whose description says its responses are not stated.
   */
  defaultResponse?: OperationResponse
  /**
   * Whether the operation states any status it answers with: false without `responses` (legal in 3.1)
   * and false with a lone `default`, which names no status.
   */
  declaresResponses: boolean
  /** Security requirements in force: the operation's own, else the document's. */
  security: Record<string, string[]>[]
  /** The operation's `x-*` extensions, e.g. `x-sunset`. */
  extensions: Record<string, unknown>
}

/** Lists every operation of the document, in document order. */
export function listOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : []
    for (const method of methods) {
      const raw = pathItem[method.toLowerCase()]
      if (!isRecord(raw)) continue
      const at = `#/paths/${pointerSegment(path)}/${method.toLowerCase()}`
      const operationId = typeof raw.operationId === 'string' ? raw.operationId : undefined
      const declared = readResponses(document, at, raw.responses)
      const responses = declared.filter((response) => response.status !== 'default')
      const defaultResponse = declared.find((response) => response.status === 'default')
      operations.push({
        id: operationId ?? `${method} ${path}`,
        ...(operationId === undefined ? {} : { operationId }),
        method,
        path,
        deprecated: raw.deprecated === true,
        tags: Array.isArray(raw.tags) ? raw.tags.map(String) : [],
        parameters: readParameters(document, at, shared, raw.parameters),
        ...readRequestBody(document, at, raw.requestBody),
        responses,
        ...(defaultResponse ? { defaultResponse } : {}),
        declaresResponses: responses.length > 0,
        security: (Array.isArray(raw.security)
          ? raw.security
          : ((document.security as unknown[]) ?? [])) as Record<string, string[]>[],
        extensions: Object.fromEntries(Object.entries(raw).filter(([key]) => key.startsWith('x-'))),
      })
    }
  }
  return operations
}

function readParameters(
  document: OpenApiDocument,
  at: string,
  shared: unknown[],
  own: unknown,
): OperationParameter[] {
  const pathLevel = at.slice(0, at.lastIndexOf('/'))
  const entries = [
    ...shared.map((_, index) => `${pathLevel}/parameters/${index}`),
    ...(Array.isArray(own) ? own.map((_, index) => `${at}/parameters/${index}`) : []),
  ]
  const byKey = new Map<string, OperationParameter>()
  for (const pointer of entries) {
    const { at: real, value } = followReference(document, pointer)
    if (!isRecord(value) || typeof value.name !== 'string' || typeof value.in !== 'string') {
      throw new ContractError(
        `Failed to load the contract: the parameter at ${pointer} has no "name" or "in".`,
      )
    }
    // OpenAPI 3.1 §4.8.10: an operation-level parameter overrides a path-level one of the same name and location.
    const schema = followReference(document, `${real}/schema`).value
    byKey.set(`${value.in}:${value.name}`, {
      name: value.name,
      in: value.in as OperationParameter['in'],
      required: value.required === true,
      schemaPointer: `${real}/schema`,
      ...(isRecord(schema) && 'default' in schema ? { defaultValue: schema.default } : {}),
    })
  }
  return [...byKey.values()]
}

function readRequestBody(
  document: OpenApiDocument,
  at: string,
  raw: unknown,
): Pick<Operation, 'requestBody'> {
  if (raw === undefined) return {}
  const { at: real, value } = followReference(document, `${at}/requestBody`)
  const content = isRecord(value) && isRecord(value.content) ? value.content : {}
  const schemaPointer = isRecord(content['application/json'])
    ? `${real}/content/application~1json/schema`
    : undefined
  return {
    requestBody: {
      required: isRecord(value) && value.required === true,
      contentTypes: Object.keys(content),
      ...(schemaPointer === undefined ? {} : { schemaPointer }),
    },
  }
}

function readResponses(document: OpenApiDocument, at: string, raw: unknown): OperationResponse[] {
  if (!isRecord(raw)) return []
  return Object.keys(raw).map((status) => {
    const { at: real, value } = followReference(document, `${at}/responses/${status}`)
    const response = isRecord(value) ? value : {}
    const content = isRecord(response.content) ? response.content : {}
    const headers = isRecord(response.headers) ? response.headers : {}
    return {
      status,
      description: typeof response.description === 'string' ? response.description : '',
      ...(isRecord(content['application/json'])
        ? { schemaPointer: `${real}/content/application~1json/schema` }
        : {}),
      headers: Object.keys(headers).map((name) => {
        const header = followReference(document, `${real}/headers/${pointerSegment(name)}`)
        return {
          name: name.toLowerCase(),
          required: isRecord(header.value) && header.value.required === true,
          schemaPointer: `${header.at}/schema`,
        }
      }),
    }
  })
}
