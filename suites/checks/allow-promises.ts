// Holds what an Allow header says to how its path answers: no method it lists refused, none declared left out.
import type { CheckContext } from '../engine/index.ts'
import type { Exchange } from '../judging/index.ts'
import { clip } from '../output/index.ts'
import { type DeclaredPath, flag } from './undeclared-methods.ts'

/**
 * The methods an Allow header lists (RFC 9110 §10.2.1: method tokens separated by commas), upper-cased as
 * routers compare them.
 * @example allowedMethods('GET,head, POST') // ['GET', 'HEAD', 'POST']
 */
export function allowedMethods(allow: string): string[] {
  return allow
    .slice(0, 4096)
    .split(',')
    .map((method) => method.trim().toUpperCase())
    .filter((method) => method !== '')
}

// RFC 9110 §15.5.6 (405: the resource does not support the method) and §15.6.2 (501: the server supports
// it nowhere): either says the method is not served there, which an Allow listing it contradicts.
const refuses = (status: number) => status === 405 || status === 501

/**
 * Records how a path answered a method it does not declare, with the key, and holds every `Allow` of its
 * answers to the others the run has had there (HEAD and OPTIONS beside the other checks, the write methods
 * at the end): a method an Allow lists must not be refused with 405 or 501 (the header lies about the
 * resource), and the methods the contract declares there must be listed. Costs no request: only answers
 * the run already has are compared. Keyless answers are not held: a refusal before the key is checked
 * says nothing of what the resource supports. The declared methods' own answers are their checks'.
 */
export function keepAllowPromise(
  context: Pick<CheckContext, 'methodAnswers'>,
  exchange: Exchange,
  { path, declared }: DeclaredPath,
): void {
  const { status, headers } = exchange.response
  if (exchange.request.headers.authorization === undefined || status === 0) return
  const { method } = exchange.request
  const earlier = context.methodAnswers.get(path) ?? []
  const allow = headers.allow
  context.methodAnswers.set(path, [...earlier, { method, status, ...(allow === undefined ? {} : { allow }) }])
  if (allow !== undefined) {
    const listed = allowedMethods(allow)
    const shown = JSON.stringify(clip(allow, 160))
    const missing = declared.filter((one) => !listed.includes(one))
    if (missing.length > 0)
      flag(
        exchange,
        'broken-header-promise',
        'Allow leaves out methods the contract declares',
        `${method} ${path} answered ${status} with Allow ${shown}, which leaves out ${missing.join(', ')}: the contract declares ${declared.join(', ')} there, and a client that reads Allow (RFC 9110 §10.2.1) is told the resource does not support them.`,
      )
    const refused = [...earlier, { method, status }].filter(
      (answer) => refuses(answer.status) && listed.includes(answer.method),
    )
    if (refused.length > 0)
      flag(
        exchange,
        'broken-header-promise',
        'Allow lists methods the path refuses',
        `${method} ${path} answered ${status} with Allow ${shown}, yet ${path} refused ${refused.map((answer) => `${answer.method} with ${answer.status}`).join(', ')}: Allow lists the methods the resource supports (RFC 9110 §10.2.1).`,
      )
  }
  if (!refuses(status)) return
  const lister = earlier.find((answer) => answer.allow && allowedMethods(answer.allow).includes(method))
  if (lister)
    flag(
      exchange,
      'broken-header-promise',
      'Allow lists methods the path refuses',
      `${method} ${path} answered ${status}, yet ${lister.method} ${path} listed ${method} in its Allow ${JSON.stringify(clip(lister.allow ?? '', 160))}: Allow lists the methods the resource supports (RFC 9110 §10.2.1).`,
    )
}
