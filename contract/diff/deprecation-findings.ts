// The deprecation lifecycle HEAD must keep: deprecated with a sunset, a sunset only when deprecated.
import { isRecord, type OpenApiDocument } from '../openapi-document.ts'
import type { DiffFinding } from './contract-change.ts'
import { basePathOf } from './locate-change.ts'

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** The sunset an operation announces, `x-sunset: YYYY-MM-DD` (the kit's contract marks getPet so). */
export function sunsetOf(operation: unknown): string | undefined {
  const sunset = isRecord(operation) ? operation['x-sunset'] : undefined
  return sunset === undefined ? undefined : String(sunset)
}

function isDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
}

/**
 * Each operation whose deprecation marks HEAD set or changed and left inconsistent: `deprecated: true`
 * without an `x-sunset` (clients cannot plan the removal), an `x-sunset` without `deprecated: true`
 * (generated clients and docs do not warn), or a sunset that is not a YYYY-MM-DD date. An operation whose
 * marks are as they were in BASE is not reported again.
 */
export function deprecationFindings(base: OpenApiDocument, head: OpenApiDocument): DiffFinding[] {
  const findings: DiffFinding[] = []
  for (const [path, item] of Object.entries(head.paths)) {
    if (!isRecord(item)) continue
    for (const method of httpMethods) {
      const operation = item[method]
      if (!isRecord(operation)) continue
      const before = base.paths[path]?.[method]
      const deprecated = operation.deprecated === true
      const sunset = sunsetOf(operation)
      if (isRecord(before) && (before.deprecated === true) === deprecated && sunsetOf(before) === sunset)
        continue
      const id = typeof operation.operationId === 'string' ? operation.operationId : null
      const changed = { id, method: method.toUpperCase(), path, requestPath: `${basePathOf(head)}${path}` }
      const name = id ?? `${method.toUpperCase()} ${path}`
      if (deprecated && sunset === undefined)
        findings.push({
          kind: 'deprecated-without-sunset',
          message: `${name} is marked deprecated without a sunset: add x-sunset: YYYY-MM-DD, the day it may be removed.`,
          operation: changed,
        })
      if (!deprecated && sunset !== undefined)
        findings.push({
          kind: 'sunset-without-deprecated',
          message: `${name} has x-sunset ${sunset} but is not deprecated: add deprecated: true, or remove the sunset.`,
          operation: changed,
        })
      if (sunset !== undefined && !isDate(sunset))
        findings.push({
          kind: 'sunset-not-a-date',
          message: `${name} has x-sunset "${sunset}", which is not a date: write it as YYYY-MM-DD.`,
          operation: changed,
        })
    }
  }
  return findings
}
