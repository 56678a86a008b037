// The one registry of rules a server can break, contract or policy, that reports and docs all read.
/**
 * The one registry of the rules a server can break: each a root cause a person can act on. The reports,
 * `docs/checks.md` (checked against it by a test) and the Schemathesis parity table all read it.
 *
 * - `contract`: the contract's own words are broken (a declared status missed, a body off its schema,
 *   auth, a 5xx, data changed);
 * - `policy`: the suite's opinion where the contract is silent. Labelled so in every report, and turned
 *   off by `--policy off` (the default stays strict).
 */
export const rules = {
  'server-error': {
    group: 'status',
    kind: 'contract',
    description: 'A 5xx: never acceptable, whatever was sent.',
  },
  'undeclared-status': {
    group: 'status',
    kind: 'contract',
    description: 'A valid request answered with a status the operation does not declare.',
    pointer: '/paths/~1pets/get/responses',
  },
  'wrong-status': {
    group: 'status',
    kind: 'contract',
    description:
      'A declared status, but not the one the request calls for (404 for a pet that exists, 400 for a valid body).',
    pointer: '/components/responses/BadRequest',
  },
  auth: {
    group: 'auth',
    kind: 'contract',
    description: 'A request without a valid key was not refused with 401.',
    pointer: '/components/securitySchemes/bearerAuth',
  },
  'invalid-accepted': {
    group: 'status',
    kind: 'contract',
    description:
      'A request that breaks the contract was answered 2xx where the contract declares a refusal (400).',
    pointer: '/paths/~1pets/post/responses/400',
  },
  'valid-value-refused': {
    group: 'status',
    kind: 'contract',
    description:
      'A value the contract allows (an empty name, a name with NUL, a negative categoryId) was refused: accept it, or state the rule in the contract (for example `minLength: 1`). One finding per field, whichever checks sent it.',
    pointer: '/components/schemas/NewPet',
  },
  'invalid-not-refused': {
    group: 'status',
    kind: 'policy',
    description:
      'A value outside the contract’s bounds (limit=101) was answered 2xx on an operation that declares no refusal status: the suite asks for a 4xx, as Schemathesis’ negative_data_rejection does.',
    pointer: '/paths/~1pets/get/parameters/0/schema',
  },
  'content-type': {
    group: 'body',
    kind: 'contract',
    description: 'A body not sent as the declared application/json.',
    pointer: '/paths/~1pets/get/responses/200/content',
  },
  'body-schema': {
    group: 'body',
    kind: 'contract',
    description: 'A body that does not match the schema declared for its operation and status.',
    pointer: '/components/schemas/Pet',
  },
  'stored-record': {
    group: 'body',
    kind: 'contract',
    description:
      'A record stored before this run that breaks the schema whenever it is served: fix or migrate the record.',
    pointer: '/components/schemas/Pet',
  },
  'error-status': {
    group: 'body',
    kind: 'contract',
    description: 'An Error body whose `status` differs from the HTTP status.',
    pointer: '/components/schemas/Error/properties/status',
  },
  'duplicate-member': {
    group: 'body',
    kind: 'policy',
    description:
      'An object in a response body names a member twice (`{"name":5,"name":"Rex"}`): parsers disagree on the value (JSON.parse keeps the last, others the first) or refuse the body. RFC 8259 §4: names SHOULD be unique; I-JSON (RFC 7493 §2.3), which the contract does not name: MUST NOT.',
  },
  'leaked-internals': {
    group: 'body',
    kind: 'policy',
    description:
      'An error answer that shows the server’s internals: a stack trace, a source path with its line, a framework’s debug page (CWE-209). The contract asks only for its Error body; the suite asks that nothing else be in it.',
  },
  header: {
    group: 'headers',
    kind: 'contract',
    description: 'A declared response header (Deprecation, Sunset) missing or off its schema.',
    pointer: '/components/headers',
  },
  'broken-header-promise': {
    group: 'headers',
    kind: 'policy',
    description:
      'A header that names a URL or a set of methods does not keep its promise when tried: a Location, Content-Location or Link that does not lead (same origin, 200) to what it names, or an Allow that lists a method the path refuses with 405/501, or leaves out one the contract declares there (RFC 9110 §10.2.2, §8.7, §10.2.1; RFC 8288).',
  },
  'wrong-challenge': {
    group: 'headers',
    kind: 'policy',
    description:
      'A 401 without a WWW-Authenticate challenge (RFC 9110 §11.6.1: it MUST send one), or whose challenges do not offer the scheme the contract declares (Bearer): a Basic challenge makes browsers ask for a password.',
    pointer: '/components/securitySchemes/bearerAuth',
  },
  limit: {
    group: 'state',
    kind: 'contract',
    description: 'A page longer than `limit` (or than the default 20).',
    pointer: '/paths/~1pets/get/parameters/0/schema',
  },
  filter: {
    group: 'state',
    kind: 'contract',
    description: 'A filtered list holding pets of another status.',
    pointer: '/paths/~1pets/get/parameters/1',
  },
  'lost-write': {
    group: 'state',
    kind: 'contract',
    description:
      'A created pet that cannot be read back, or is missing from its filtered list while that page is not full.',
    pointer: '/paths/~1pets/post/responses/201',
  },
  'changed-value': {
    group: 'state',
    kind: 'contract',
    description: 'A pet read back differs from what was sent.',
    pointer: '/components/schemas/NewPet',
  },
  'duplicate-id': {
    group: 'state',
    kind: 'contract',
    description: 'Two pets given the same id.',
    pointer: '/components/schemas/Pet/allOf/1/properties/id',
  },
  'client-id': {
    group: 'state',
    kind: 'contract',
    description: 'The server used the id the client sent instead of assigning its own.',
    pointer: '/components/schemas/Pet/allOf/1/properties/id',
  },
  'refusal-side-effect': {
    group: 'state',
    kind: 'contract',
    description:
      'A createPet the server refused (400, 401, any 4xx) stored a pet anyway, found by the unique name the refused request carried: the contract’s refusal means nothing was added.',
    pointer: '/paths/~1pets/post/responses/400',
  },
  'undeclared-write': {
    group: 'method',
    kind: 'contract',
    description:
      'A method the contract does not declare on a path changed the store, with or without the key: a pet the run created changed or gone, or a pet created, as the API’s own reads show. The only write the contract offers is createPet.',
    pointer: '/paths',
  },
  'unsupported-method': {
    group: 'method',
    kind: 'policy',
    description:
      'A method the contract does not declare on a path was served with the key (2xx or 3xx) but changed nothing, or refused with 405 but no Allow (RFC 9110 §15.5.6).',
  },
  'valid-form-refused': {
    group: 'status',
    kind: 'contract',
    description:
      'A valid request in a form real clients send and the RFCs make the same request was refused with a 4xx: `bearer` in lower case (RFC 9110 §11.1), `application/json; charset=utf-8` (§8.3.1), axios’s Accept list, no Accept or Accept-Encoding (§12.5), capitalised header names, `Connection: close`. The finding names the form and the clients that send it, and cites the contract’s words where there are some (the security scheme, the media types).',
  },
  'client-quirk-refused': {
    group: 'status',
    kind: 'policy',
    description:
      'A valid request in a form a common client sends, which the RFCs leave the server free to refuse, was refused with a 4xx: the client’s own User-Agent (a bot rule), `Content-Length: 0` on a GET (Java’s HttpClient before JDK 19).',
  },
  'no-response': {
    group: 'transport',
    kind: 'contract',
    description: 'No complete response within the deadline, or the connection closed mid-response.',
  },
  'unsolicited-response': {
    group: 'transport',
    kind: 'contract',
    description:
      'A response nobody asked for, on a kept-alive connection: taken as the next request’s answer, it shifts every answer after it (RFC 9112 §9.3, §9.3.2). Named after the request whose answer it followed; a read that got two answers is read again on a connection of its own, and checks that read other answers from such a connection are blocked by it.',
  },
  'response-too-large': {
    group: 'transport',
    kind: 'policy',
    description:
      'A body beyond the suite’s caps: 4 MiB once decoded, 65,536 chunks, or 65,536 JSON values (the contract’s bodies are small JSON documents; the caps keep the run bounded).',
  },
  prism: {
    group: 'prism',
    kind: 'contract',
    description:
      'Prism’s validating proxy reported a violation the suite’s own checks did not already explain.',
  },
  'served-after-sunset': {
    group: 'lifecycle',
    kind: 'policy',
    description:
      'An operation still answered 2xx on a day (--date, default today) past the sunset the contract gives it (x-sunset, RFC 8594): clients were told it would be gone.',
  },
  'consumer-drift': {
    group: 'consumer',
    kind: 'consumer',
    description:
      'The contract held, but an interaction a consumer recorded on the mock (--pact FILE) did not: another status, content type or body than its matching rules allow. What the frontend relies on where the contract is silent.',
  },
  coverage: {
    group: 'coverage',
    kind: 'contract',
    description: 'A declared operation × status pair no request produced.',
    pointer: '/paths',
  },
} as const satisfies Record<string, RuleInfo>

export interface RuleInfo {
  /** What part of an answer it is about: `status`, `body`, `headers`, `auth`, `state`, `method`, … */
  group: string
  kind: RuleKind
  /** One line a person reads in `--list-checks` and docs/checks.md. */
  description: string
  /** A JSON pointer into contract/openapi.yaml: the words the rule holds the server to, where there are some. */
  pointer?: string
}

/** `consumer`: a recorded consumer interaction (--pact), not the contract; a warning with --pact-drift warn. */
export type RuleKind = 'contract' | 'policy' | 'consumer'

export type RuleId = keyof typeof rules

/** The switch that turns every policy rule off. */
export const policySwitch = '--policy off'

/** The switch that makes consumer drift a warning. */
export const consumerDriftSwitch = '--pact-drift warn'

/** The rule's entry in the registry. */
export function ruleInfo(rule: RuleId): RuleInfo {
  return rules[rule]
}

/** Every rule with its id, in the registry's order. */
export function listRules(): (RuleInfo & { id: RuleId })[] {
  return (Object.keys(rules) as RuleId[]).map((id) => ({ id, ...rules[id] }))
}

/** The rules as the Markdown table docs/checks.md holds (a test keeps the page equal to it). */
export function rulesMarkdown(): string {
  const rows = listRules().map(
    (rule) =>
      `| \`${rule.id}\` | ${rule.group} | ${rule.kind} | ${rule.description.replaceAll('|', '\\|')} | ${rule.pointer ? `\`${rule.pointer}\`` : '—'} |`,
  )
  return [
    '| rule | group | kind | what it holds the server to | contract location |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n')
}
