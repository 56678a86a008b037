// Splits a request target into path and query, accepting the absolute form proxies send (RFC 9112 §3.2.2).
/** Where a request points: its path, its query, and the authority an absolute-form target names. */
export interface RequestTarget {
  path: string
  query: string
  /** `host[:port]` from an absolute-form target, which then replaces the Host header (RFC 9112 §3.2.2). */
  authority?: string
}

/**
 * Splits a request target. Origin-form (`/v1/pets?limit=5`) is what clients send; a server must also
 * accept absolute-form (`http://127.0.0.1:4010/v1/pets`, RFC 9112 §3.2.2), which proxies and some
 * clients send. Anything else (asterisk-form `*`) is passed on as its own path and gets the core's 404.
 * @example readRequestTarget('http://localhost:4010/v1/pets?limit=5') // { path: '/v1/pets', query: 'limit=5', authority: 'localhost:4010' }
 */
export function readRequestTarget(target: string): RequestTarget {
  if (target.charCodeAt(0) === 0x2f /* "/" */) return splitQuery(target)
  const absolute = /^https?:\/\/([^/?#]*)/i.exec(target)
  if (!absolute) return splitQuery(target)
  const authority = absolute[1] ?? ''
  const rest = target.slice(absolute[0].length)
  const { path, query } = splitQuery(rest.startsWith('/') ? rest : `/${rest}`)
  // userinfo is not part of the host (RFC 3986 §3.2.1).
  return { path, query, authority: authority.slice(authority.lastIndexOf('@') + 1) }
}

function splitQuery(target: string): RequestTarget {
  const queryAt = target.indexOf('?')
  return queryAt === -1
    ? { path: target, query: '' }
    : { path: target.slice(0, queryAt), query: target.slice(queryAt + 1) }
}
