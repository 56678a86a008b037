// What a check means a request to be, which decides what a conforming answer to it is: the judge's input.

/**
 * What the request is meant to be, which decides what a conforming answer is:
 * - `valid`: conforms to the contract; the answer's status must be one the operation declares;
 * - `invalid`: breaks the contract's own constraints; any 4xx with an Error body, an undeclared one
 *   being a warning (the contract does not say which 4xx);
 * - `unauthorized`: no or a bad API key; 401 with an Error body (Authentication §3);
 * - `no-such-pet`: a valid id no pet can have (0, negative); any 4xx with an Error body, or a 2xx the check
 *   judges (the pet must be that one);
 * - `no-data`: no key, on a spelling of a path that a router may or may not treat as the operation's; the
 *   answer may be anything but data (2xx) or a server error, and its body is the router's business;
 * - `valid-or-refused`: valid, but awkward for a server (a lone surrogate, NUL, a duplicate key): a declared
 *   2xx that gives back exactly what was sent, or any 4xx with an Error body; never a 5xx;
 * - `unsupported-method`: a path of the contract, with a method it does not declare there (HEAD and OPTIONS
 *   included), with or without the key: never a 5xx but 501; a 4xx or 501 carries an Error; the check
 *   judges a 2xx or 3xx (served without a key, data changed, or only answered) and which refusal.
 * - `past-sunset`: an operation on a day past its `x-sunset`: removed, or still served (the check judges
 *   that, by policy); anything but a server error.
 * - `named-by-header`: a URL a response header named (Location, Content-Location, Link), sent as named:
 *   anything but a server error; the check judges whether it leads where the header said.
 */
export type Intent =
  | 'valid'
  | 'invalid'
  | 'unauthorized'
  | 'no-such-pet'
  | 'no-data'
  | 'valid-or-refused'
  | 'unsupported-method'
  | 'past-sunset'
  | 'named-by-header'

export interface SendParams {
  intent: Intent
  /**
   * For `invalid`: what breaks the contract (`query limit`, `body /categoryId`); for `unauthorized`: the
   * kind of credential (`no credentials`). Requests that show the same root cause share this text.
   */
  fault?: string
  /** Path parameter values, as text or numbers (`{ petId: 12 }`). */
  path?: Record<string, string | number>
  /** Query parameters, sent in this order; a string is sent as it is (`limit=1&limit=2`). */
  query?: Record<string, string | number> | string
  /** The path to send instead of the operation's, relative to the base URL and sent byte for byte (`/pets/%2D1`). */
  rawPath?: string
  /**
   * A path from the server's origin, the base URL's own prefix included, sent byte for byte and never
   * through Prism: another spelling of the operation's path (`/V1/PETS`), for router checks.
   */
  originPath?: string
  /** Replaces the `Authorization` header; `null` sends none. Default: `Bearer <api key>`. */
  authorization?: string | null
  /** Raw body text, sent with `Content-Type: application/json`. */
  body?: string
  /** Another method than the operation's (for `unsupported-method`). */
  method?: string
  /**
   * Headers as a client writes them, each replacing the suite's own of that name in any letter case
   * (`Authorization: bearer <key>`, `Accept-Encoding: gzip`). Such a request goes straight to the server, never
   * through Prism: the form is what the server is judged on.
   */
  headers?: Record<string, string>
  /** Headers the suite sends by default that this request leaves out (`accept`, `accept-encoding`). */
  leaveOut?: readonly string[]
  /**
   * A read no check reports (the census of tagged pets): judged, but broken records it shows are not
   * remembered, so the first check that reads them reports them, with its request to replay.
   */
  unreported?: boolean
}
