// RFC 3986 §2.3: percent-encoded unreserved characters (letters, digits, "-", ".", "_", "~") mean the
// same as the characters themselves, and §6.2.2 compares URIs after decoding them and removing dot
// segments (§5.2.4). A router that did neither would let "/%761/pets" reach what auth calls unknown.
const encodedUnreserved = /%(?:[46][1-9a-f]|[57][0-9a]|3[0-9]|2[de]|5f|7e)/gi
const needsWork = /%|\/\.\.?(?:\/|$)/

/**
 * The request path as RFC 3986 §6.2.2 compares it: unreserved characters decoded, dot segments removed.
 * @example normalizePath('/%761/./pets') // '/v1/pets'
 */
export function normalizePath(path: string): string {
  if (!needsWork.test(path)) return path
  const decoded = path.replace(encodedUnreserved, (encoded) =>
    String.fromCharCode(Number.parseInt(encoded.slice(1), 16)),
  )
  const output: string[] = []
  for (const segment of decoded.split('/').slice(1)) {
    if (segment === '.') continue
    if (segment === '..') output.pop()
    else output.push(segment)
  }
  // A path ending in a dot segment still names a directory: "/v1/pets/." is "/v1/pets/".
  const trailing = /\/\.\.?$/.test(decoded) ? '/' : ''
  return `/${output.join('/')}${trailing}`
}
