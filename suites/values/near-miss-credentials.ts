// Near-miss credentials on their own, with no import: the output boundary derives the secrets it redacts
// from them in the command's own process, which must not load the contract to do so.

/** An `Authorization` header that nearly carries the key. */
export interface NearMissCredential {
  label: string
  /** The header value, or null for no header. Never a valid `Bearer <key>` in any spelling RFC 9110 allows. */
  authorization: string | null
}

/**
 * `Authorization` headers that nearly carry the key: the key in another letter case, with a character
 * added, removed or changed, a prefix of it, an empty or missing token, whitespace inside or around the
 * token that HTTP does not strip, quotes, another separator. Every one must get 401.
 *
 * Left out on purpose, because RFC 9110 makes them the valid credentials: the scheme in another case
 * (`bearer <key>`, §11.1 case-insensitive scheme), several spaces after the scheme (§11.4 `1*SP`), and
 * spaces or tabs before or after the whole value (§5.5: field values do not include leading or trailing
 * whitespace; the server never sees them). A tab between scheme and key IS included: §11.4 and RFC 6750
 * §2.1 allow only SP there.
 * @example nearMissCredentials('secret').map((c) => c.authorization) // ['Bearer SECRET', 'Bearer Secret', ...]
 */
export function nearMissCredentials(apiKey: string): NearMissCredential[] {
  const key = apiKey
  const swapped = [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')
  const changedLast = key.slice(0, -1) + (key.endsWith('x') ? 'y' : 'x')
  const candidates: [string, string | null][] = [
    ['the key in upper case', `Bearer ${key.toUpperCase()}`],
    ['the key in lower case', `Bearer ${key.toLowerCase()}`],
    ['the key with its letter case swapped', `Bearer ${swapped}`],
    ['the key with a character added at the end', `Bearer ${key}x`],
    ['the key with a character added at the start', `Bearer x${key}`],
    ['the key without its last character', `Bearer ${key.slice(0, -1)}`],
    ['the key without its first character', `Bearer ${key.slice(1)}`],
    ['the first half of the key', `Bearer ${key.slice(0, Math.ceil(key.length / 2))}`],
    ['the key with its last character changed', `Bearer ${changedLast}`],
    ['an empty bearer token', 'Bearer '],
    ['the scheme alone', 'Bearer'],
    ['an empty header', ''],
    ['a bearer token of spaces', 'Bearer    '],
    ['the key with a space inside it', `Bearer ${key.slice(0, 1)} ${key.slice(1)}`],
    ['the key followed by a space and another word', `Bearer ${key} extra`],
    // Not a tab or a no-break space around the key: RFC 9110 §11.4 allows neither, but trim() and split(/\s+/)
    // accept both, and a server built on them is not wrong enough to fail its release on.
    ['no separator between scheme and key', `Bearer${key}`],
    ['the key in double quotes', `Bearer "${key}"`],
    ['a colon after the scheme', `Bearer: ${key}`],
    ['the key twice, comma-separated', `Bearer ${key}, Bearer ${key}`],
    ['the key under the Token scheme', `Token ${key}`],
  ]
  // Two spellings the server receives identically (RFC 9110 §5.5 strips outer SP/HTAB) are sent once.
  const seen = new Set<string | null>()
  return candidates
    .filter(([, authorization]) => {
      if (authorization !== null && isValidBearer(authorization, key)) return false
      const onTheWire = authorization?.replace(/^[ \t]+|[ \t]+$/g, '') ?? null
      if (seen.has(onTheWire)) return false
      seen.add(onTheWire)
      return true
    })
    .map(([label, authorization]) => ({ label, authorization }))
}

/**
 * Whether a header value carries `key` as RFC 9110 §11.4 and RFC 6750 §2.1 allow: `Bearer` in any case,
 * one or more spaces, the key, after HTTP has stripped leading and trailing spaces and tabs (§5.5).
 * @example isValidBearer('bearer  k', 'k') // true
 */
export function isValidBearer(header: string, key: string): boolean {
  const match = /^bearer +(\S+)$/i.exec(header.replace(/^[ \t]+|[ \t]+$/g, ''))
  return match?.[1] === key
}
