// Schemathesis' checks set against our rules, the table docs/checks.md shows, so no rule goes unplaced.
import { type RuleId, rules } from '../../suites/judging/index.ts'

/**
 * Schemathesis' checks set against ours. Each row names the rules that carry it, so the registry says
 * whether a miss is the contract's word or the suite's policy, and a rule placed in no row fails a test.
 */
interface ParityRow {
  /** The Schemathesis check, or undefined where it has none. */
  schemathesis?: string
  ours: string
  rules: readonly RuleId[]
  /** What a miss is, beyond the rule's kind: where a warning stands instead, and why. */
  miss: string
}

export const schemathesisParity: readonly ParityRow[] = [
  {
    schemathesis: 'not_a_server_error',
    ours: 'every response of every check: any 5xx (the one exception: 501 on `GET /store/orders`, whose responses the contract does not define)',
    rules: ['server-error'],
    miss: 'a failure',
  },
  {
    schemathesis: 'status_code_conformance',
    ours: 'every response to a valid request has a declared status; where the contract names the status for the situation (400 invalid body, 404 unknown id, 401) it is held',
    rules: ['undeclared-status', 'wrong-status', 'auth'],
    miss: "a failure; an undeclared 4xx to an invalid request is advice for the contract's owner (the contract does not say which 4xx)",
  },
  {
    schemathesis: 'content_type_conformance',
    ours: '`application/json` exactly (type and subtype, any parameters) wherever a body is declared and on every Error',
    rules: ['content-type'],
    miss: "a failure for data in another type, JSON or not: a client dispatching on the declared type does not read it. A `+json` type on an **Error** (`application/problem+json`, as Spring's ProblemDetail and ASP.NET send by default) is a **warning**: the contract declares `application/json`, but the Error schema is still held and every JSON client parses a `+json` type (RFC 6839 §3.1); the warning asks to send `application/json` or declare the other type",
  },
  {
    schemathesis: 'response_headers_conformance',
    ours: 'each declared header, when sent, valid against its schema; required ones present',
    rules: ['header'],
    miss: 'a failure',
  },
  {
    schemathesis: 'response_schema_conformance',
    ours: 'every body against the declared schema, int64 read exactly; Errors whose `status` differs from the HTTP status; records stored before the run, judged once, apart from what the run wrote',
    rules: ['body-schema', 'error-status', 'stored-record'],
    miss: 'a failure',
  },
  {
    schemathesis: 'negative_data_rejection',
    ours: 'negative bodies, near-miss bodies, queries and path ids generated from the schemas; all need a 4xx with an Error, 400 where createPet declares it; a value out of bounds on an operation that declares no refusal (`limit=101`) needs a 4xx by policy',
    rules: ['invalid-accepted', 'wrong-status', 'invalid-not-refused'],
    miss: 'a failure',
  },
  {
    schemathesis: 'positive_data_acceptance',
    ours: "45 valid bodies across each field's range (the empty name included), each given back exactly by every read; valid but awkward bodies given back exactly, a lone surrogate or a repeated name also refused",
    rules: ['changed-value', 'valid-value-refused', 'wrong-status'],
    miss: 'a failure; a refused valid value is one finding per field, whichever checks sent it, with the advice to accept it or state the rule in the contract (`minLength: 1`); `--exclude-checks valid-value-refused` accepts a server whose stricter rule is documented elsewhere',
  },
  {
    schemathesis: 'missing_required_header',
    ours: 'our only required header is `Authorization` (a security scheme, not a header parameter): every operation without it needs 401',
    rules: ['auth'],
    miss: 'a failure',
  },
  {
    schemathesis: 'ignored_auth',
    ours: 'every operation with no key, a wrong key, another scheme and the near-miss credentials needs 401; path spellings without a key never get data',
    rules: ['auth'],
    miss: 'a failure',
  },
  {
    schemathesis: 'unsupported_method',
    ours: 'every write method (POST, PUT, PATCH, DELETE) each path leaves undeclared, without then with the key, against a pet the check created and reads back; HEAD and OPTIONS on every path, with and without the key',
    rules: ['undeclared-write', 'auth', 'unsupported-method'],
    miss: 'a change to the store (a pet changed, gone or created) is a failure, with or without the key, and so is a 2xx without the key (HEAD included: it is GET without the content; OPTIONS only when it answers with data, a CORS preflight carrying none); with the key, a 2xx/3xx that changed nothing or a 405 without `Allow` is a failure by policy; 401, 404, 405 and 501 are refusals, another 4xx a warning: the contract does not declare 405',
  },
  {
    schemathesis: 'use_after_free',
    ours: 'no meaning here: the API has no delete, so nothing can be used after it',
    rules: [],
    miss: '—',
  },
  {
    schemathesis: 'ensure_resource_availability',
    ours: 'every created pet is read back by id and in its filtered list, and again once every other check has finished writing',
    rules: ['lost-write', 'changed-value'],
    miss: 'a failure',
  },
  {
    ours: 'a refused create stores nothing: every refused body carries a name of its own, looked for on the first page of the list and of each status filter once every other check has finished writing',
    rules: ['refusal-side-effect'],
    miss: 'a failure: the contract’s 400 and 401 mean the create was refused; a pet listed under a refused body’s name is attributed to it exactly, whatever else was created meanwhile',
  },
  {
    ours: 'the stateful model: random sequences of creates, lists and gets, concurrent batches, shrunk to the smallest failing one',
    rules: ['lost-write', 'changed-value', 'duplicate-id', 'limit', 'filter'],
    miss: 'a failure',
  },
  {
    ours: 'no object of any body names a member twice (RFC 8259 §4): names compared after unescaping, as the body is read, so a value the parser keeps last cannot hide another',
    rules: ['duplicate-member'],
    miss: 'a failure by policy: RFC 8259 says SHOULD, and the contract does not name I-JSON (RFC 7493), which says MUST NOT',
  },
  {
    ours: 'every error answer (any 4xx or 5xx, whatever else it breaks) holds no stack trace (Node, JVM, Python, Go, .NET, PHP, Ruby), no source path with its line, and is no framework’s debug page (Django, Werkzeug, Rails, ASP.NET, Whoops)',
    rules: ['leaked-internals'],
    miss: 'a failure by policy: the contract asks for the Error body and does not forbid more in it; a leak is CWE-209 and OWASP API8:2023',
  },
  {
    ours: 'the headers that name a URL are tried: createPet’s Location and Content-Location lead (same origin, GET, 200) to the created pet, a list page’s Content-Location and paging Links to pages; every Allow is held to how its path answered',
    rules: ['broken-header-promise'],
    miss: 'a failure by policy: the contract declares none of these headers, RFC 9110 (§10.2.2, §8.7, §10.2.1) and RFC 8288 say what they promise; a URL on another origin is reported, never sent',
  },
  {
    ours: 'every 401 carries a WWW-Authenticate challenge that offers the scheme the contract declares (Bearer)',
    rules: ['wrong-challenge'],
    miss: 'a failure by policy: the contract declares the bearer scheme, not the header; RFC 9110 §11.6.1 requires a challenge on a 401',
  },
  {
    ours: '`limit` and `status` filters obeyed, ids unique and the server’s own',
    rules: ['limit', 'filter', 'duplicate-id', 'client-id'],
    miss: 'a failure',
  },
  {
    ours: 'int64 beyond 2^53 round-tripped exactly, and beyond int64 refused',
    rules: ['changed-value', 'invalid-accepted'],
    miss: 'a failure',
  },
  {
    ours: 'the key checked before the body; router path spellings never leak data without a key',
    rules: ['auth'],
    miss: 'a failure; an RFC 3986-equal spelling answered other than 401 is a warning',
  },
  {
    ours: 'a cheap read and a create as eleven real clients send them (browsers’ fetch, axios, curl, Python requests, Java, Spring, Go, .NET, Node, an OAuth client): each must be accepted, and a refusal is traced to the one form at its root',
    rules: ['valid-form-refused', 'client-quirk-refused'],
    miss: 'a failure where the RFCs or the contract make the form the same request (scheme case, media type parameters, Accept and Accept-Encoding, header name case, `Connection: close`); by policy for a client’s User-Agent and `Content-Length: 0` on a GET, which a server may refuse',
  },
  {
    ours: 'bounds: deadlines, a stopped server, the 4 MiB decoded-body cap',
    rules: ['no-response', 'response-too-large'],
    miss: 'a failure',
  },
  {
    ours: 'every answer is its own request’s: no response nobody asked for on a kept-alive connection',
    rules: ['unsolicited-response'],
    miss: 'a failure, once; checks that read answers from that connection are blocked by it',
  },
  {
    ours: 'with `--via-prism`, Prism’s own verdicts, each checked against the response',
    rules: ['prism'],
    miss: 'a failure unless the response disproves it',
  },
  {
    ours: 'coverage: every declared operation × status pair produced',
    rules: ['coverage'],
    miss: 'a failure',
  },
  {
    ours: 'past an operation’s sunset (`x-sunset`, on `--date`, default today), it is no longer served',
    rules: ['served-after-sunset'],
    miss: 'a policy failure (`--policy off`: a warning); skipped before the day',
  },
  {
    ours: 'with `--pact FILE`, every interaction a consumer recorded on the mock, judged by its matching rules where the contract holds (Pact’s own verification, which Schemathesis does not do)',
    rules: ['consumer-drift'],
    miss: 'a failure of its own kind, consumer drift (`--pact-drift warn`: a warning)',
  },
]

/** A rule as the table names it: its id, and "(policy)" where the registry says the contract is silent. */
function ruleCell(rule: RuleId): string {
  return rules[rule].kind === 'contract' ? `\`${rule}\`` : `\`${rule}\` (${rules[rule].kind})`
}

/** The table docs/checks.md holds (a test keeps the page equal to it). */
export function parityMarkdown(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|')
  const rows = schemathesisParity.map((row) =>
    [
      row.schemathesis ? `\`${row.schemathesis}\`` : '—',
      cell(row.ours),
      row.rules.length > 0 ? row.rules.map(ruleCell).join(', ') : '—',
      cell(row.miss),
    ].join(' | '),
  )
  return [
    '| Schemathesis check | ours | rules | a miss is |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n')
}
