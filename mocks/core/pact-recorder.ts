// A consumer's real use of the mock, recorded: one interaction per request shape, bounded, with what the contract says of each.
import { stringifyExactJson } from '../../contract/exact-json.ts'
import type { Contract, Operation } from '../../contract/index.ts'
import { contractNotes } from './contract-notes.ts'
import { type DeprecatedUse, deprecatedUse, deprecatedUseLine } from './deprecated-use.ts'
import type { PactDocument, PactInteraction } from './pact-document.ts'
import { interactionOf, type RecordedExchange, shapeOf } from './pact-interaction.ts'

/** `record` in the mock's options: who the consumer is, and where test names come from. */
export interface RecordOptions {
  /** The consumer's name, in the Pact file and its name: letters, digits, `.`, `_`, `-` (at most 64). */
  consumer: string
  /** The provider's name in the Pact file (default `animal-store`). */
  provider?: string
  /** The most distinct interactions kept (default 500): a new shape past it is counted, not kept. */
  maxInteractions?: number
  /** The running test's name, e.g. `() => expect.getState().currentTestName` under vitest. */
  testName?: () => string | undefined
}

/** Why a request under the API was not made an interaction. */
export type SkipReason =
  | 'no accepted key'
  | 'key outside Authorization'
  | 'fault injected'
  | 'answer forced by Prefer'
  | 'no such operation'
  | 'too large to keep'
  | 'interaction limit reached'

/** What a recording holds, for the recorder's printout and the tests. */
export interface RecordingSummary {
  consumer: string
  requests: number
  interactions: number
  deprecated: DeprecatedUse[]
  /** Interactions the contract does not back, with why (by interaction description). */
  contractNotes: { interaction: string; notes: string[] }[]
  skipped: Partial<Record<SkipReason, number>>
}

const defaultMaxInteractions = 500
// One interaction's JSON past this is not kept: a recording is bounded by count and by size.
const maxInteractionChars = 256 * 1024
const maxTestsPerInteraction = 5
const consumerPattern = /^[A-Za-z0-9._-]{1,64}$/

interface Kept {
  interaction: PactInteraction
  operation: Operation
  requests: number
  tests: string[]
  notes: string[]
}

/**
 * Records what the mock answered, shape by shape: the first exchange of a shape becomes the interaction,
 * later ones only count and add their test names. Memory: at most `maxInteractions` interactions of at
 * most 256 KiB each, whatever the traffic.
 * @example const recorder = new PactRecorder(contract, '/v1', { consumer: 'web-app' })
 */
export class PactRecorder {
  readonly consumer: string
  readonly provider: string
  private readonly maxInteractions: number
  private readonly kept = new Map<string, Kept>()
  private readonly descriptions = new Set<string>()
  private skippedCounts: Partial<Record<SkipReason, number>> = {}
  private requests = 0
  private readonly contract: Contract
  private readonly basePath: string
  private readonly options: RecordOptions

  constructor(contract: Contract, basePath: string, options: RecordOptions) {
    this.contract = contract
    this.basePath = basePath
    this.options = options
    if (!consumerPattern.test(options.consumer))
      throw new Error(
        `The consumer's name names its Pact file: use 1 to 64 letters, digits, ".", "_" or "-"; got ${JSON.stringify(String(options.consumer).slice(0, 80))}.`,
      )
    this.consumer = options.consumer
    this.provider = options.provider ?? 'animal-store'
    this.maxInteractions = options.maxInteractions ?? defaultMaxInteractions
  }

  /** The running test's name, from the runtime's hook; a failing hook names none. */
  testName(): string | undefined {
    try {
      const name = this.options.testName?.()
      return typeof name === 'string' ? cleanTestName(name) : undefined
    } catch {
      return undefined
    }
  }

  record(exchange: RecordedExchange): void {
    this.requests++
    if (exchange.testName !== undefined) {
      const testName = cleanTestName(exchange.testName)
      exchange = { ...exchange, ...(testName === undefined ? { testName: undefined } : { testName }) }
    }
    const shape = shapeOf(exchange)
    const known = this.kept.get(shape)
    if (known) {
      known.requests++
      addTest(known.tests, exchange.testName)
      return
    }
    if (this.kept.size >= this.maxInteractions) {
      this.skip('interaction limit reached')
      return
    }
    const interaction = interactionOf(this.contract, this.basePath, exchange)
    if (stringifyExactJson(interaction).length > maxInteractionChars) {
      this.skip('too large to keep')
      return
    }
    interaction.key = shapeKey(shape)
    interaction.description = this.unique(interaction.description)
    const tests: string[] = []
    addTest(tests, exchange.testName)
    this.kept.set(shape, {
      interaction,
      operation: exchange.operation,
      requests: 1,
      tests,
      notes: contractNotes(this.contract, exchange),
    })
  }

  /** Counts a request under the API that is no interaction, and why. */
  skip(reason: SkipReason): void {
    this.requests++
    this.skippedCounts[reason] = (this.skippedCounts[reason] ?? 0) + 1
  }

  /** The Pact file (specification 4.0) of everything recorded so far. */
  pact(): PactDocument {
    return {
      consumer: { name: this.consumer },
      provider: { name: this.provider },
      interactions: [...this.kept.values()].map(({ interaction, tests, notes }) => {
        const text = [
          ...notes.map((note) => `contract: ${note}`),
          ...(tests.length > 1 ? [`also recorded by: ${tests.slice(1).join('; ')}`] : []),
        ]
        return text.length ? { ...interaction, comments: { ...interaction.comments, text } } : interaction
      }),
      metadata: {
        pactSpecification: { version: '4.0' },
        'animal-store-contract-kit': {
          contractVersion: this.contract.document.info.version,
          deprecated: this.summary().deprecated,
        },
      },
    }
  }

  summary(): RecordingSummary {
    const kept = [...this.kept.values()]
    return {
      consumer: this.consumer,
      requests: this.requests,
      interactions: kept.length,
      deprecated: deprecatedUse(kept),
      contractNotes: kept
        .filter((entry) => entry.notes.length > 0)
        .map((entry) => ({ interaction: entry.interaction.description, notes: entry.notes })),
      skipped: { ...this.skippedCounts },
    }
  }

  /** Forgets everything recorded (the mock's reset does not: a recording spans a consumer's tests). */
  clear(): void {
    this.kept.clear()
    this.descriptions.clear()
    this.skippedCounts = {}
    this.requests = 0
  }

  // Pact tools tell interactions apart by description: a second one alike gets a number.
  private unique(description: string): string {
    let candidate = description
    for (let n = 2; this.descriptions.has(candidate); n++) candidate = `${description} (${n})`
    this.descriptions.add(candidate)
    return candidate
  }
}

/**
 * A test's name as a Pact file and a terminal may show it: no control characters (the HTTP mock takes it
 * from a request header anyone can send), at most 200 characters.
 */
function cleanTestName(name: string): string | undefined {
  const clean = [...name]
    .map((char) => (isInvisible(char.codePointAt(0) ?? 0) ? ' ' : char))
    .join('')
    .trim()
  return clean === '' ? undefined : clean.slice(0, 200)
}

/** A 64-bit FNV-1a hash of a shape, in hex: pure, so the browser's recorder computes it too. */
function shapeKey(shape: string): string {
  let hash = 0xcbf29ce484222325n
  for (let index = 0; index < shape.length; index++) {
    hash ^= BigInt(shape.charCodeAt(index))
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return hash.toString(16).padStart(16, '0')
}

/** C0 and C1 controls, line and paragraph separators, and the bidirectional overrides and isolates. */
function isInvisible(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  )
}

function addTest(tests: string[], name: string | undefined): void {
  if (name !== undefined && tests.length < maxTestsPerInteraction && !tests.includes(name)) tests.push(name)
}

/**
 * The recording in lines for a terminal: what was written, the deprecated calls, what the contract does
 * not back, and what was not recorded.
 */
export function describeRecording(summary: RecordingSummary, file?: string): string[] {
  const lines = [
    `Recorded ${summary.interactions} interaction${summary.interactions === 1 ? '' : 's'} of ${summary.consumer} from ${summary.requests} request${summary.requests === 1 ? '' : 's'}${file ? ` into ${file}` : ''}.`,
  ]
  if (summary.deprecated.length > 0) {
    lines.push('Deprecated use:')
    for (const use of summary.deprecated) lines.push(`  ${deprecatedUseLine(summary.consumer, use)}`)
  }
  if (summary.contractNotes.length > 0) {
    lines.push('Not backed by the contract (a server that keeps it may answer otherwise):')
    for (const { interaction, notes } of summary.contractNotes)
      for (const note of notes) lines.push(`  ${interaction}: ${note}`)
  }
  const skipped = Object.entries(summary.skipped)
  if (skipped.length > 0)
    lines.push(`Not recorded: ${skipped.map(([reason, count]) => `${count} (${reason})`).join(', ')}.`)
  return lines
}
