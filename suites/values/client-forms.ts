// What real clients send, as data: each request form the RFCs make equivalent, and the clients that send it.

/**
 * One way a request differs from the suite's own (`accept: application/json`, `authorization: Bearer <key>`,
 * lower-case names, compact JSON), which a client sends and a correct server accepts.
 */
export interface ClientForm {
  /** What is sent, as a finding names it: `Content-Type: application/json; charset=utf-8`. */
  label: string
  /**
   * The defect a refusal shows, where several forms share it (the finding is one however many are refused):
   * a server comparing Content-Type exactly refuses every charset parameter alike.
   */
  root?: string
  /** Where the contract says it (a JSON pointer), where it does: the RFCs alone say the rest. */
  cites?: string
  /** Why a server must accept it, or why the suite asks it to (the RFC section). */
  why: string
  /**
   * `contract`: the contract's security scheme or media type and the RFCs make it the same request;
   * `policy`: the RFCs leave refusing it to the server, but common clients send it.
   */
  kind: 'contract' | 'policy'
  /** The requests it applies to: a body's form only to the create, a GET's only to reads. */
  on: 'reads' | 'create' | 'all'
  /** Headers set as the client writes them, replacing the suite's own of the same name in any case. */
  headers?: Record<string, string>
  /** Headers the suite sends that the client does not (lower case). */
  leaveOut?: readonly string[]
  /** The authorization scheme as the client spells it, followed by the key. */
  scheme?: string
  /** Header names written as most clients write them (`Content-Type`), not in the suite's lower case. */
  capitalised?: true
  /** The JSON body as the client serialises it. */
  serialise?: (value: Record<string, unknown>) => string
}

const formsById = {
  'bearer lower case': {
    // Not "Authorization: …": the output boundary redacts whatever follows that, as it should.
    cites: '/components/securitySchemes/bearerAuth',
    label: 'the bearer scheme in lower case ("bearer" and the key)',
    why: 'RFC 9110 §11.1: the authentication scheme is case-insensitive; an OAuth client that sends its token response’s token_type as it came ("bearer", as GitHub’s token endpoint writes it) sends this',
    kind: 'contract',
    on: 'all',
    scheme: 'bearer',
  },
  'accept any': {
    cites: '/paths/~1pets/get/responses/200/content',
    label: 'Accept: */*',
    why: 'RFC 9110 §12.5.1: */* accepts application/json',
    kind: 'contract',
    on: 'all',
    headers: { accept: '*/*' },
  },
  'accept axios': {
    root: 'an Accept list that names application/json among other types',
    cites: '/paths/~1pets/get/responses/200/content',
    label: 'Accept: application/json, text/plain, */*',
    why: 'RFC 9110 §12.5.1: the list names application/json first; a server answers in one of the types listed',
    kind: 'contract',
    on: 'all',
    headers: { accept: 'application/json, text/plain, */*' },
  },
  'accept spring': {
    root: 'an Accept list that names application/json among other types',
    cites: '/paths/~1pets/get/responses/200/content',
    label: 'Accept: application/json, application/*+json',
    why: 'RFC 9110 §12.5.1: the list names application/json',
    kind: 'contract',
    on: 'all',
    headers: { accept: 'application/json, application/*+json' },
  },
  'no accept': {
    cites: '/paths/~1pets/get/responses/200/content',
    label: 'no Accept header',
    why: 'RFC 9110 §12.5.1: a request without Accept accepts any media type',
    kind: 'contract',
    on: 'all',
    leaveOut: ['accept'],
  },
  'no accept-encoding': {
    label: 'no Accept-Encoding header',
    why: 'RFC 9110 §12.5.3: without Accept-Encoding any coding is acceptable, the identity one included',
    kind: 'contract',
    on: 'all',
    leaveOut: ['accept-encoding'],
  },
  'accept-encoding gzip': {
    root: 'an Accept-Encoding other than the suite’s own',
    label: 'Accept-Encoding: gzip',
    why: 'RFC 9110 §12.5.3: identity is acceptable unless excluded; the server may answer uncompressed or in gzip',
    kind: 'contract',
    on: 'all',
    headers: { 'accept-encoding': 'gzip' },
  },
  'accept-encoding requests': {
    root: 'an Accept-Encoding other than the suite’s own',
    label: 'Accept-Encoding: gzip, deflate',
    why: 'RFC 9110 §12.5.3: identity is acceptable unless excluded',
    kind: 'contract',
    on: 'all',
    headers: { 'accept-encoding': 'gzip, deflate' },
  },
  'accept-encoding browser': {
    root: 'an Accept-Encoding other than the suite’s own',
    label: 'Accept-Encoding: gzip, deflate, br, zstd',
    why: 'RFC 9110 §12.5.3: a coding the server does not know is ignored; identity is acceptable unless excluded',
    kind: 'contract',
    on: 'all',
    headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
  },
  'accept-encoding axios': {
    root: 'an Accept-Encoding other than the suite’s own',
    label: 'Accept-Encoding: gzip, compress, deflate, br',
    why: 'RFC 9110 §12.5.3: a coding the server does not know is ignored; identity is acceptable unless excluded',
    kind: 'contract',
    on: 'all',
    headers: { 'accept-encoding': 'gzip, compress, deflate, br' },
  },
  'connection close': {
    label: 'Connection: close',
    why: 'RFC 9112 §9.6: the client asks to close the connection after the answer, which changes nothing else',
    kind: 'contract',
    on: 'all',
    headers: { connection: 'close' },
  },
  'header names capitalised': {
    label: 'header names in their usual capitals (Authorization, Accept, Content-Type)',
    why: 'RFC 9110 §5.1: field names are case-insensitive',
    kind: 'contract',
    on: 'all',
    capitalised: true,
  },
  'json charset spaced': {
    root: 'Content-Type: application/json with a charset parameter',
    cites: '/paths/~1pets/post/requestBody/content',
    label: 'Content-Type: application/json; charset=utf-8',
    why: 'RFC 9110 §8.3.1: a media type takes parameters, and RFC 8259 §11 gives charset no effect on application/json',
    kind: 'contract',
    on: 'create',
    headers: { 'content-type': 'application/json; charset=utf-8' },
  },
  'json charset upper case': {
    root: 'Content-Type: application/json with a charset parameter',
    cites: '/paths/~1pets/post/requestBody/content',
    label: 'Content-Type: application/json;charset=UTF-8',
    why: 'RFC 9110 §8.3.1: parameters may follow with no space, and charset values are case-insensitive',
    kind: 'contract',
    on: 'create',
    headers: { 'content-type': 'application/json;charset=UTF-8' },
  },
  'json charset axios': {
    root: 'Content-Type: application/json with a charset parameter',
    cites: '/paths/~1pets/post/requestBody/content',
    label: 'Content-Type: application/json;charset=utf-8',
    why: 'RFC 9110 §8.3.1: a media type takes parameters',
    kind: 'contract',
    on: 'create',
    headers: { 'content-type': 'application/json;charset=utf-8' },
  },
  'json spaced': {
    cites: '/paths/~1pets/post/requestBody/content',
    label: 'a JSON body with a space after every colon and comma',
    why: 'RFC 8259 §2: whitespace around structural characters is insignificant',
    kind: 'contract',
    on: 'create',
    // Python's json.dumps, whose default separators are ", " and ": ".
    serialise: (value) =>
      `{${Object.entries(value)
        .map(([name, member]) => `${JSON.stringify(name)}: ${JSON.stringify(member)}`)
        .join(', ')}}`,
  },
  'get content-length zero': {
    label: 'Content-Length: 0 on a GET',
    why: 'RFC 9110 §8.6 asks clients not to send it on a GET, but an empty body changes nothing; Java’s HttpClient sent it before JDK 19 (JDK-8283544)',
    kind: 'policy',
    on: 'reads',
    headers: { 'content-length': '0' },
  },
  'user-agent browser': userAgent(
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ),
  'user-agent axios': userAgent('axios/1.7.9'),
  'user-agent axios 0': userAgent('axios/0.27.2'),
  'user-agent curl': userAgent('curl/8.5.0'),
  'user-agent requests': userAgent('python-requests/2.32.3'),
  'user-agent java': userAgent('Java-http-client/17.0.13'),
  'user-agent spring': userAgent('Java/1.8.0_412'),
  'user-agent go': userAgent('Go-http-client/1.1'),
} as const satisfies Record<string, ClientForm>

/** A client's own User-Agent: refusing it (a WAF's bot rule) is the server's choice, so asking is policy. */
function userAgent(value: string): ClientForm {
  return {
    label: `User-Agent: ${value}`,
    why: 'RFC 9110 §10.1.5: the product that sent the request; nothing in the contract depends on it',
    kind: 'policy',
    on: 'all',
    headers: { 'user-agent': value },
  }
}

export type ClientFormId = keyof typeof formsById

/** A client as it sends requests by default, with what a developer adds for this API (its Content-Type). */
export interface ClientProfile {
  client: string
  forms: readonly ClientFormId[]
}

/** The clients whose requests the suite sends, each with the forms it sends that the suite's own do not. */
export const clientProfiles: readonly ClientProfile[] = [
  {
    client: 'a browser’s fetch (Chrome)',
    forms: ['accept any', 'accept-encoding browser', 'user-agent browser', 'header names capitalised'],
  },
  {
    client: 'axios 1.x',
    forms: ['accept axios', 'accept-encoding axios', 'user-agent axios', 'header names capitalised'],
  },
  {
    client: 'axios before 1.0',
    forms: ['accept axios', 'json charset axios', 'no accept-encoding', 'user-agent axios 0'],
  },
  {
    client: 'curl',
    forms: ['accept any', 'no accept-encoding', 'user-agent curl', 'header names capitalised'],
  },
  {
    client: 'Python requests',
    forms: [
      'accept any',
      'accept-encoding requests',
      'user-agent requests',
      'header names capitalised',
      'json spaced',
    ],
  },
  {
    client: 'Java’s HttpClient (JDK 17)',
    forms: ['no accept', 'no accept-encoding', 'user-agent java', 'get content-length zero'],
  },
  {
    client: 'Spring’s RestTemplate before 5.2',
    forms: [
      'accept spring',
      'json charset upper case',
      'no accept-encoding',
      'user-agent spring',
      'header names capitalised',
    ],
  },
  {
    client: 'Go’s net/http',
    forms: ['no accept', 'accept-encoding gzip', 'user-agent go', 'header names capitalised'],
  },
  {
    client: '.NET’s HttpClient (PostAsJsonAsync)',
    forms: ['json charset spaced', 'no accept-encoding', 'header names capitalised'],
  },
  {
    client: 'Node’s http.request before Node 19 (no keep-alive agent)',
    forms: ['no accept', 'no accept-encoding', 'connection close'],
  },
  { client: 'an OAuth client echoing token_type "bearer"', forms: ['bearer lower case'] },
]

/** The form of that id. */
export function clientForm(id: ClientFormId): ClientForm {
  return formsById[id]
}

/**
 * Where a refusal of the form is reported, the same whichever client's request showed it: its root (or the
 * form itself) and every client that sends a form of that root.
 * @example refusalOf('bearer lower case') // 'the bearer scheme in lower case ("bearer" and the key) (an OAuth client…)'
 */
export function refusalOf(id: ClientFormId): string {
  const form: ClientForm = formsById[id]
  const sameRoot = (Object.keys(formsById) as ClientFormId[]).filter((other) =>
    form.root === undefined ? other === id : (formsById[other] as ClientForm).root === form.root,
  )
  const clients = clientProfiles
    .filter((profile) => profile.forms.some((other) => sameRoot.includes(other)))
    .map((profile) => profile.client)
  return `${form.root ?? form.label} (${clients.join('; ')})`
}

/** The clients that send the form, for the message that names them. */
export function clientsSending(id: ClientFormId): string[] {
  return clientProfiles.filter((profile) => profile.forms.includes(id)).map((profile) => profile.client)
}
