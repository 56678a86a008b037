// The creates a server refused, by the unique name each carried: what the side-effect check looks for later.
import type { Exchange, SendParams } from '../judging/index.ts'

/**
 * Refused creates by the name they carried, and every name a create was accepted with. A name is kept only
 * when it carries the run's id, so no pet stored before the run, and no other run's, can have it; a name
 * some create was also accepted with is no evidence, whichever answer came first.
 */
export interface RefusedCreates {
  /** The run's id, which starts every name the run sends. */
  runId: string
  byName: Map<string, Exchange>
  accepted: Set<string>
}

/** Notes a createPet answer: a 4xx refusal by its tagged name, a 2xx by the name it stored. */
export function noteCreate(refused: RefusedCreates, params: SendParams, exchange: Exchange): void {
  const name = nameOf(params.body)
  if (name === undefined || !name.startsWith(`${refused.runId} `)) return
  const { status } = exchange.response
  if (status >= 200 && status <= 299) refused.accepted.add(name)
  else if (status >= 400 && status <= 499 && !refused.byName.has(name)) refused.byName.set(name, exchange)
}

/**
 * The first string `name` member in the body's text: read from the text, not parsed, so a body that is not
 * one JSON object (an array of pets, trailing data, two objects) still names the pet a lax parser stores.
 */
function nameOf(body: string | undefined): string | undefined {
  const literal = /"name"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(body ?? '')?.[1]
  if (literal === undefined) return undefined
  try {
    return JSON.parse(literal) as string
  } catch {
    return undefined
  }
}
