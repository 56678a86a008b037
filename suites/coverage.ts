import { contract } from '../contract/index.ts'
import { CheckFailure } from './exchange.ts'

/** Every operation × declared status pair the run must see (operations without responses aside). */
export function declaredPairs(readOnly: boolean): string[] {
  return contract.operations
    .filter((operation) => operation.declaresResponses && !(readOnly && operation.method !== 'GET'))
    .flatMap((operation) => operation.responses.map((response) => `${operation.id} ${response.status}`))
}

/** The coverage table: each declared pair and whether some check's request got that answer. */
export function coverageTable(
  seen: ReadonlySet<string>,
  readOnly: boolean,
): { pair: string; seen: boolean }[] {
  return declaredPairs(readOnly).map((pair) => ({ pair, seen: seen.has(pair) }))
}

/**
 * Fails when a declared pair was never exercised: the suite (or the server) left part of the contract
 * untested. `excused` pairs could not be produced (read-only with no pets) and only warn.
 */
export function ensureCoverage(
  seen: ReadonlySet<string>,
  readOnly: boolean,
  excused: ReadonlySet<string>,
  warn: (message: string) => void,
): void {
  const unseen = coverageTable(seen, readOnly)
    .filter((row) => !row.seen)
    .map((row) => row.pair)
  const missing = unseen.filter((pair) => !excused.has(pair))
  for (const pair of unseen.filter((pair) => excused.has(pair)))
    warn(`${pair} was not exercised: this target gave no way to.`)
  if (missing.length > 0) {
    throw new CheckFailure(
      `No request got these declared answers: ${missing.join(', ')}. The server never produced them for requests meant to.`,
    )
  }
}
