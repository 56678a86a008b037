// Checks HEAD and OPTIONS on every path: HEAD needs the key as GET does, OPTIONS without one gives no data.
import { contract } from '../../contract/index.ts'
import type { Check } from '../engine/index.ts'
import { declaredResponse, jsonOf } from '../judging/index.ts'
import { keepAllowPromise } from './allow-promises.ts'
import { declaredPaths, flag, judgeRefusal, sendUndeclared } from './undeclared-methods.ts'

const keyless = '/components/securitySchemes/bearerAuth'

/**
 * HEAD and OPTIONS on each path, with the key and without. Neither changes anything (RFC 9110 §9.2.1), so
 * they run beside the other checks and in read-only mode.
 *
 * - HEAD is GET without the content (RFC 9110 §9.3.2; §9.1: every general-purpose server supports it), so
 *   on a path that declares GET it is that operation and needs the key like it: a 2xx without the key is
 *   `auth` (it tells who asks without a key which pets exist). With the key, a 2xx is GET's answer, and
 *   404, 405 and 501 are honest refusals; a 405 still carries Allow.
 * - OPTIONS is how a browser asks before a cross-origin request (the Fetch standard's CORS preflight), and
 *   a preflight carries no credentials: a CORS layer answers it before any key is checked, 204 or 200,
 *   and that is right. Only data in that answer is a finding (`auth`): a body the path's GET would give.
 */
export const safeMethodProbes: Check = {
  group: 'security',
  name: 'HEAD and OPTIONS on every path: HEAD needs the key as GET does, OPTIONS without a key answers no data',
  async run(context) {
    const { fixtures } = context
    const petId = declaredPaths.some(({ path }) => path.includes('{'))
      ? (await fixtures.somePet()).id
      : undefined
    await Promise.all(
      declaredPaths.flatMap((declared) =>
        ['HEAD', 'OPTIONS'].map(async (method) => {
          if (declared.declared.includes(method)) return
          const withKey = await sendUndeclared(context, declared, method, petId)
          judgeRefusal(context, withKey, declared)
          keepAllowPromise(context, withKey, declared)
          const without = await sendUndeclared(context, declared, method, petId, { authorization: null })
          const { status } = without.response
          if (status < 200 || status > 299) return judgeRefusal(context, without, declared)
          const get = contract.operations.find((one) => one.path === declared.path && one.method === 'GET')
          if (method === 'HEAD')
            return flag(
              without,
              'auth',
              'HEAD is served without a key',
              `HEAD ${declared.path} without a key answered ${status}: HEAD is GET without its content (RFC 9110 §9.3.2), and every operation requires the API key; the contract requires 401.`,
              keyless,
            )
          if (!get || declaredResponse(get, 200)?.schemaPointer === undefined) return
          if (contract.validateResponseBody(get.id, 200, jsonOf(without)).ok)
            flag(
              without,
              'auth',
              'OPTIONS without a key answers with data',
              `OPTIONS ${declared.path} without a key answered ${status} with what GET gives (a ${get.id} body): data without a key; a CORS preflight answer carries none.`,
              keyless,
            )
        }),
      ),
    )
  },
}
