// Checks a method the contract does not declare on a path (PATCH {}) is refused, 405 with Allow.
import { contract } from '../../contract/index.ts'
import type { Check } from '../engine/index.ts'
import { ensure } from '../engine/index.ts'

/**
 * Schemathesis' `unsupported_method`, judged against this contract: each path of the contract, with a valid
 * key, under a method it does not declare there. `PATCH` with `{}` (an empty JSON merge patch, RFC 7396,
 * changes nothing) rather than `DELETE`: a server that wrongly implements the method must not be able to
 * destroy data the run, or a person, still needs. Sent straight to the server, never through Prism.
 *
 * - a 2xx or 3xx: a failure (`unsupported-method`): the server does something the contract does not offer;
 * - 405 without `Allow`: a failure (RFC 9110 §15.5.6 requires it);
 * - 405 whose `Allow` lacks a method the contract declares there: a warning (clients read it to recover);
 * - any other 4xx (404 is Express's default, 400 a body validator that runs first): a warning, since the
 *   contract does not say 405; the body must still be an Error (the service's Errors section);
 * - a 5xx: a failure, as everywhere.
 */
const paths = [...new Set(contract.operations.map((operation) => operation.path))]

export const unsupportedMethodChecks: Check[] = paths.flatMap((path): Check[] => {
  const declared = contract.operations.filter((operation) => operation.path === path)
  const operation = declared[0]
  if (!operation || declared.some((candidate) => candidate.method === 'PATCH')) return []
  const allowed = declared.map((candidate) => candidate.method)
  return [
    {
      group: operation.id,
      name: `PATCH ${path} (a method the contract does not declare there) with a valid key: refused, 405 with Allow`,
      // A server that wrongly implements PATCH could change data: not in read-only mode.
      writes: true,
      async run({ send, target, fixtures, warn }) {
        const basePath = new URL(target.baseUrl).pathname.replace(/\/$/, '')
        const petId = path.includes('{') ? String((await fixtures.somePet()).id) : undefined
        const concrete = path.replace(/\{[^}]+\}/g, petId ?? '')
        const answer = await send(operation.id, {
          intent: 'unsupported-method',
          method: 'PATCH',
          fault: 'PATCH',
          originPath: `${basePath}${concrete}`,
          body: '{}',
        })
        const { status, headers } = answer.response
        if (status === 405) {
          const allow = headers.allow
          ensure(
            allow !== undefined,
            { rule: 'unsupported-method', where: '405 responses carry Allow' },
            `PATCH ${basePath}${concrete} answered 405 without an Allow header; RFC 9110 §15.5.6 requires one listing the methods the resource supports.`,
            answer,
          )
          const listed = new Set((allow ?? '').split(',').map((method) => method.trim().toUpperCase()))
          const missing = allowed.filter((method) => !listed.has(method))
          if (missing.length > 0)
            warn(
              `PATCH ${path} was refused with 405, but its Allow header "${allow}" lacks ${missing.join(', ')}, which the contract declares there.`,
            )
        } else if (status >= 400 && status <= 499)
          warn(
            // The same words on every path, so the report says it once: a router's habit, not one path's.
            `A method the contract does not declare on a path (PATCH) was refused with ${status}, not 405: RFC 9110 §15.5.6 answers a method the resource does not support with 405 and an Allow header (the contract itself does not say).`,
          )
      },
    },
  ]
})
