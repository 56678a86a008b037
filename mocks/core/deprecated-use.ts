// Which deprecated operations a consumer's interactions call, with the sunset and replacement the contract gives.
import type { Operation } from '../../contract/index.ts'

/** A deprecated operation a consumer calls, with what replaces it and when it goes. */
export interface DeprecatedUse {
  operation: string
  interactions: number
  tests: string[]
  sunset?: string
  replacement?: string
}

const maxTests = 5

/** The deprecated operations among these interactions' (each with the tests that made it), by operation. */
export function deprecatedUse(
  interactions: readonly { operation: Operation; tests: readonly string[] }[],
): DeprecatedUse[] {
  const byOperation = new Map<Operation, { tests: readonly string[] }[]>()
  for (const entry of interactions)
    if (entry.operation.deprecated)
      byOperation.set(entry.operation, [...(byOperation.get(entry.operation) ?? []), entry])
  return [...byOperation].map(([operation, entries]) => {
    const sunset = operation.extensions['x-sunset']
    const replacement = replacementOf(operation.extensions['x-replaced-by'])
    return {
      operation: operation.id,
      interactions: entries.length,
      tests: [...new Set(entries.flatMap((entry) => entry.tests))].slice(0, maxTests),
      ...(typeof sunset === 'string' ? { sunset } : {}),
      ...(replacement ? { replacement } : {}),
    }
  })
}

/** "consumer web-app calls getPet in 3 interactions (tests: …); removal 2030-12-05; use GET /pets?status=…" */
export function deprecatedUseLine(consumer: string, use: DeprecatedUse): string {
  return `consumer ${consumer} calls ${use.operation} in ${use.interactions} interaction${use.interactions === 1 ? '' : 's'}${use.tests.length ? ` (tests: ${use.tests.join('; ')})` : ''}${use.sunset ? `; removal ${use.sunset}` : ''}${use.replacement ? `; use ${use.replacement}` : ''}`
}

/** `x-replaced-by` ({ method, path, parameters }) as a request: "GET /pets?status=…". */
export function replacementOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { method, path, parameters } = value as { method?: unknown; path?: unknown; parameters?: unknown }
  if (typeof method !== 'string' || typeof path !== 'string') return undefined
  const names = Array.isArray(parameters) ? parameters.filter((name) => typeof name === 'string') : []
  return `${method} ${path}${names.length ? `?${names.map((name) => `${name}=…`).join('&')}` : ''}`
}
