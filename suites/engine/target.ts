// ConformanceTarget: what the suite is pointed at and the bounds of a run, the input every stage reads.
import type { LoadedPact } from '../../mocks/pact-file.ts'
import type { NetworkOptions } from '../network/index.ts'

export type { LoadedPact }

/** What the suite is pointed at, and the bounds of the run. */
export interface ConformanceTarget {
  /** The API's base URL, `/v1` included, e.g. `http://127.0.0.1:4010/v1`. */
  baseUrl: string
  apiKey: string
  /** Production mode: no createPet; checks that need a pet use one found by listing. */
  readOnly: boolean
  /**
   * With --via-prism: where Prism's validating proxy listens (it serves the contract's paths without
   * the `/v1` prefix). Requests go there, and its `sl-violations` headers are judged against the response.
   */
  prismUrl?: string
  /** One deadline per request, headers and body included. */
  requestTimeoutMs: number
  /** Response bodies are read up to this many bytes. */
  maxResponseBytes: number
  /** When the whole run must be over (epoch ms). */
  runDeadline: number
  /** How the names of the pets this run creates start, so a person can find them on the server. */
  namePrefix: string
  /** The seed of every generated sequence: the same seed replays the same requests. */
  seed: number
  /**
   * `strict` (the default): the suite's policy where the contract is silent is judged like the contract;
   * `off`: policy findings become warnings (`--policy off`).
   */
  policy?: 'strict' | 'off'
  /** Rules left out with --checks / --exclude-checks: never judged, reported as excluded. */
  excludedRules?: readonly string[]
  /** The command the user ran (`npx animal-store-conformance`), for replay lines. */
  command?: string
  /** How many random sequences the stateful model runs. */
  maxExamples: number
  /** Rate limit, proxy, TLS material and extra headers. */
  network?: NetworkOptions
  /** At most this many creates (`--max-writes`): checks that would go past it are skipped. */
  maxWrites?: number
  /**
   * `--max-created-total`: when the target already holds more pets tagged by earlier runs than this (as far
   * as the first pages show them), nothing is created and the run exits 2 asking for a clean-up.
   */
  maxCreatedTotal?: number
  /** The day sunsets are judged against (`--date`, YYYY-MM-DD); default today, UTC. */
  date?: string
  /** Consumers' recorded interactions (`--pact FILE`), each replayed as a check of its own. */
  pacts?: readonly LoadedPact[]
  /** `fail` (the default): consumer drift fails the run like a Pact verification; `warn`: a warning. */
  pactDrift?: 'fail' | 'warn'
  /**
   * Set by the pre-flight when the server answered even a refusal over the byte cap (what happened, in
   * words): no answer of it can be judged, so every check is blocked by that one finding.
   */
  overCap?: string
}
