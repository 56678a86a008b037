// Matches a method and path to the contract's operation (or a 404 / 405), below the servers' base path.
import type { Contract, Operation } from '../../contract/index.ts'

export type RouteMatch =
  | { kind: 'operation'; operation: Operation; pathParams: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' }

/**
 * The path prefix every operation lives under, read from the contract's first server
 * (`{base_url}/v1` gives `/v1`), with server variables replaced by their defaults.
 */
export function basePathOf(contract: Contract): string {
  const servers = contract.document.servers as {
    url: string
    variables?: Record<string, { default: string }>
  }[]
  const server = servers?.[0]
  if (!server) return ''
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '')
  return new URL(url, 'http://placeholder').pathname.replace(/\/$/, '')
}

/**
 * Builds the router for the contract's operations: a path relative to the base path in, the operation
 * and its raw path parameters out.
 * @example createRouter(contract)('GET', '/pets/12') // { kind: 'operation', operation: getPet, pathParams: { petId: '12' } }
 */
export function createRouter(contract: Contract): (method: string, path: string) => RouteMatch {
  const templates = new Map<string, { pattern: RegExp; names: string[]; byMethod: Map<string, Operation> }>()
  for (const operation of contract.operations) {
    let template = templates.get(operation.path)
    if (!template) {
      const names: string[] = []
      const source = operation.path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1]
          if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          names.push(name)
          return '([^/]+)'
        })
        .join('')
      template = { pattern: new RegExp(`^${source}$`), names, byMethod: new Map() }
      templates.set(operation.path, template)
    }
    template.byMethod.set(operation.method, operation)
  }

  return (method, path) => {
    for (const { pattern, names, byMethod } of templates.values()) {
      const match = pattern.exec(path)
      if (!match) continue
      const operation = byMethod.get(method.toUpperCase())
      if (!operation) return { kind: 'method_not_allowed', allow: [...byMethod.keys()] }
      const pathParams = Object.fromEntries(names.map((name, index) => [name, match[index + 1] ?? '']))
      return { kind: 'operation', operation, pathParams }
    }
    return { kind: 'not_found' }
  }
}
