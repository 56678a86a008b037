// The response check of a 401's WWW-Authenticate challenge against the security scheme the contract declares.
import { contract } from '../../../contract/index.ts'
import type { Operation } from '../../../contract/operations.ts'
import { clip } from '../../output/index.ts'
import type { ResponseCheck } from './judging.ts'

// RFC 9110 §5.6.2: a token; an auth-scheme is one (§11.1), and so is an auth-param's name.
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/

/**
 * The auth-schemes a WWW-Authenticate value offers (RFC 9110 §11.6.1, §11.3: challenges separated by
 * commas, each a scheme then a token68 or auth-params), lower-cased. Quoted strings are set aside first,
 * so a realm holding a comma or a scheme's name names nothing.
 * @example offeredSchemes('Basic realm="a, Bearer b", Bearer error="invalid_token"') // ['basic', 'bearer']
 */
export function offeredSchemes(header: string): string[] {
  const unquoted = header.slice(0, 8192).replace(/"(?:[^"\\]|\\.){0,8192}"/g, '""')
  const schemes: string[] = []
  for (const part of unquoted.split(',')) {
    const trimmed = part.trim()
    const name = token.exec(trimmed)?.[0]
    // `realm=x` is an auth-param of the challenge before it, not a scheme; `abc==` a token68.
    if (name === undefined || /^\s*=/.test(trimmed.slice(name.length))) continue
    schemes.push(name.toLowerCase())
  }
  return schemes
}

/**
 * The challenge schemes the operation's security allows, from the contract: an http scheme's own name
 * (`bearer`, RFC 7235's registry), Bearer for OAuth 2 and OpenID Connect (RFC 6750 §3); an API key in a
 * header names no challenge, so an operation secured only that way is not judged.
 */
function declaredSchemes(operation: Operation): string[] {
  const schemes = (contract.document.components?.securitySchemes ?? {}) as Record<
    string,
    { type?: string; scheme?: string }
  >
  const names = new Set<string>()
  for (const requirement of operation.security)
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name]
      if (scheme?.type === 'http' && scheme.scheme) names.add(scheme.scheme.toLowerCase())
      if (scheme?.type === 'oauth2' || scheme?.type === 'openIdConnect') names.add('bearer')
    }
  return [...names]
}

/**
 * A 401 must carry at least one challenge (RFC 9110 §11.6.1), and one of them must be the scheme the
 * contract declares: a client that reads the challenge to learn how to authenticate is told Bearer, and a
 * `Basic` challenge alone (Spring Security's default `httpBasic()`) makes every browser ask for a password.
 * The contract does not declare the header, so this is policy. Judged on every 401, whatever else it
 * broke: one authentication layer writes them all, so each defect is one finding whatever the operation.
 */
export const challengeCheck: ResponseCheck = {
  name: 'WWW-Authenticate challenge',
  rules: ['wrong-challenge'],
  judge({ exchange, operation, name, violate }) {
    if (exchange.response.status !== 401) return undefined
    const wanted = declaredSchemes(operation)
    if (wanted.length === 0) return undefined
    const header = exchange.response.headers['www-authenticate']
    const words = wanted.map((scheme) => scheme.charAt(0).toUpperCase() + scheme.slice(1)).join(' or ')
    if (header === undefined || header.trim() === '') {
      violate(
        'wrong-challenge',
        '401 answers carry no WWW-Authenticate challenge',
        `${name} 401 carries no WWW-Authenticate header: RFC 9110 §11.6.1 requires at least one challenge on a 401, here ${words} (the contract's security scheme).`,
      )
      return undefined
    }
    const offered = offeredSchemes(header)
    if (!offered.some((scheme) => wanted.includes(scheme)))
      violate(
        'wrong-challenge',
        `401 challenges do not offer ${words}`,
        `${name} 401 challenges with ${JSON.stringify(clip(header, 160))}, which does not offer ${words}, the scheme the contract declares: a client is told to authenticate another way${offered.includes('basic') ? ', and a Basic challenge makes browsers ask for a user name and password' : ''}.`,
      )
    return undefined
  },
}
