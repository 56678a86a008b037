// What one check keeps while it sends: its exchanges (bodies let go once judged), warnings, advice, notes.
import { releaseJudgedBody } from '../network/index.ts'
import type { Exchange } from './exchange.ts'

/** What one check accumulates while it sends. */
export interface Recorder {
  exchanges: RecordedExchange[]
  /** What the server does that a person may want to look at, though the contract allows it. */
  warnings: string[]
  /** What the contract's owner may want to change (a status every server answers, undeclared). */
  advice: string[]
  notes: string[]
  /** `operation status` pairs seen, for the coverage check (shared by the run). */
  seen: Set<string>
}

/** What a check's recorder keeps of an exchange for its report: all but the body's value, and 4 KiB of its text. */
export type RecordedExchange = Omit<Exchange, 'json'>

/**
 * Records the exchange in its place among the check's, and returns how to turn that entry into what the
 * check's report needs once judging is over. The record holds no parsed value and only the start of the
 * body: the check holds what it needs of the exchange itself for as long as it needs it, and a check that
 * makes hundreds of requests (the stateful model) must not hold hundreds of bodies until it ends.
 */
export function record(recorder: Recorder, exchange: Exchange): () => void {
  const at = recorder.exchanges.push(exchange) - 1
  return () => {
    recorder.exchanges[at] = recordOf(exchange)
  }
}

export function recordOf(exchange: Exchange): RecordedExchange {
  const { json: _value, response, ...kept } = exchange
  const start = { ...response }
  releaseJudgedBody(start)
  return { ...kept, response: start }
}
