// The vocabulary of a contract diff: a change, where it is, who it breaks and why, and the diff's findings.

/** Who a change breaks: clients that call the API (consumers) or servers that implement it (providers). */
export type Side = 'consumers' | 'providers'

/** Which side's breaking changes fail the diff (`--fail-on`). */
export type FailOn = Side | 'any'

/** The operation a change is in, as a recorded interaction (a Pact) would name it. */
export interface ChangedOperation {
  /** The `operationId`, or null for an operation the contract leaves unnamed (GET /store/orders). */
  id: string | null
  /** Upper case, as sent: `GET`. */
  method: string
  /** The path template as the document writes it: `/pets/{petId}`. */
  path: string
  /** The same with the first server's path prefix, as a request line has it: `/v1/pets/{petId}`. */
  requestPath: string
}

/** Where in an operation a change is: enough to match it against a recorded request or response. */
export interface ChangeLocation {
  /** `operation` for the operation as a whole, `document` for what no operation owns (servers, security). */
  in: 'request' | 'response' | 'operation' | 'document'
  parameter?: { in: string; name: string }
  /** The response's status as declared: `200`, `4XX`, `default`. */
  status?: string
  header?: string
  mediaType?: string
  /**
   * JSON Pointer into the request or response body (or the parameter's value) the change is about;
   * `*` stands for every item of an array: `/*\/status` is the status of each pet of a list.
   */
  pointer?: string
  /** JSON Pointer into the schema as it validates ($refs followed, allOf merged), where the keyword sits. */
  schemaPointer?: string
  /** For a document-level change, the JSON Pointer into the document. */
  documentPointer?: string
}

export interface ContractChange {
  action: 'added' | 'removed' | 'changed'
  /** What changed, in a few words: `maximum`, `enum value "sold"`, `property "tag"`, `operation`. */
  what: string
  operation: ChangedOperation | null
  location: ChangeLocation
  before?: unknown
  after?: unknown
  /** The sides this change breaks; empty when it breaks nobody. */
  breaks: Side[]
  /** Why it is classified so, a sentence a person reads. */
  reason: string
  /** A removed operation's announced sunset (`x-sunset`), YYYY-MM-DD. */
  sunset?: string
  /**
   * With `--pact`: the recorded interactions this change touches, by consumer; empty when no recorded
   * interaction uses what changed (a breaking change stays breaking: nobody recorded relies on it).
   */
  affected?: { consumer: string; interactions: string[] }[]
}

/** Something the diff holds against HEAD besides its changes: the deprecation lifecycle, the version. */
export interface DiffFinding {
  kind:
    | 'deprecated-without-sunset'
    | 'sunset-without-deprecated'
    | 'sunset-not-a-date'
    | 'version-not-bumped'
    | 'version-not-semver'
    | 'changelog-without-version'
  message: string
  operation?: ChangedOperation
}

/** The two documents compared, as the report names them. */
export interface DiffSide {
  /** Where it came from: a file path, or `git show REV:PATH`. */
  source: string
  /** Its `info.version`. */
  version: string
}

export interface ContractDiff {
  format: 'animal-store-contract-diff/1'
  base: DiffSide
  head: DiffSide
  /** The day sunsets were judged against, YYYY-MM-DD. */
  date: string
  failOn: FailOn
  changes: ContractChange[]
  findings: DiffFinding[]
  /** How many changes break each side, and the exit code the command ends with. */
  verdict: { consumers: number; providers: number; counted: number; exitCode: 0 | 1 }
}
